/**
 * SQL building blocks shared by the compiler: bound parameters, variable bindings, the twin_nodes column map,
 * visibility, and the JSON value helpers. Every value reaches SQL as a bound parameter; only whitelisted column
 * names and aliases we generate are written into the text.
 */
import { isUuid } from '../../../brokers/db/index.ts';

/** Collects bound parameters; identical values with the same cast share one placeholder. */
export class Params {
  readonly values: unknown[] = [];
  private readonly seen = new Map<string, string>();

  /** Binds `value` and returns its placeholder with an explicit cast, e.g. `$3::jsonb`. */
  add(value: unknown, cast: string): string {
    const bound = cast === 'jsonb' ? JSON.stringify(value) : value;
    const key = `${cast}:${JSON.stringify(bound)}`;
    const hit = this.seen.get(key);
    if (hit) return hit;
    this.values.push(bound);
    const placeholder = `$${this.values.length}::${cast}`;
    this.seen.set(key, placeholder);
    return placeholder;
  }
}

/**
 * What a variable is bound to: a node or relationship row (`ref` is a row expression such as `v1` or `(s2.x0)`,
 * so `${ref}.name` reads a column), the edge ids of a variable-length relationship (`ref` is a bigint[]), or,
 * after aggregation, a returned value (`ref` is jsonb; `entity` says when it is a node or relationship object).
 */
export type Binding =
  | { kind: 'node'; ref: string }
  | { kind: 'rel'; ref: string }
  | { kind: 'rels'; ref: string }
  | { kind: 'value'; ref: string; entity?: 'node' | 'rel' };

/** Variables in scope, by name. */
export type Scope = Map<string, Binding>;

/** SQL type of a twin_nodes column, for native comparisons that can use the indexes. */
export type ColType = 'text' | 'uuid' | 'int' | 'bool' | 'ts' | 'jsonb';

/** Node property keys that are twin_nodes columns; every other key is read from `properties`. */
export const NODE_COLUMNS: Record<string, ColType> = {
  id: 'uuid',
  project_id: 'text',
  node_type: 'text',
  name: 'text',
  properties: 'jsonb',
  item_key: 'text',
  revision: 'int',
  revision_status: 'text',
  base_revision: 'int',
  run_id: 'text',
  phase: 'text',
  gate: 'text',
  change_reason: 'text',
  draft_note: 'text',
  status_reason: 'text',
  author: 'text',
  approved_by: 'text',
  approved_at: 'ts',
  stale: 'bool',
  stale_reason: 'text',
  object_key: 'text',
  content_hash: 'text',
  created_at: 'ts',
  updated_at: 'ts',
};

/** Labels that match every node. */
export const UNIVERSAL_LABELS = new Set(['Node', 'WorkProduct']);

/** The node_type values a label matches: as written and, for PascalCase, its snake_case form (CadModel -> cad_model). */
export function labelTypes(label: string): string[] {
  const snake = label
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
  return snake === label ? [label] : [label, snake];
}

/** SQL condition for a node matching `labels` (all of them), or undefined when every node matches. */
export function labelCondition(ref: string, labels: string[], params: Params): string | undefined {
  const conds = labels
    .filter((l) => !UNIVERSAL_LABELS.has(l))
    .map((l) => `${ref}.node_type = ANY(${params.add(labelTypes(l), 'text[]')})`);
  return conds.length ? conds.join(' AND ') : undefined;
}

/**
 * Visibility of a node row: committed, approved and non-revision nodes always; drafts only of `runId`;
 * rejected and abandoned revisions never.
 */
export function visible(ref: string, params: Params, runId: string | undefined): string {
  const draft =
    runId === undefined
      ? ''
      : ` OR (${ref}.revision_status = 'draft' AND ${ref}.run_id = ${params.add(runId, 'text')})`;
  return `(${ref}.revision_status IS NULL OR ${ref}.revision_status IN ('committed', 'approved')${draft})`;
}

/** A relationship row as the JSON object queries return: {id, type, src, dst, properties}. */
export function relObject(ref: string): string {
  return (
    `CASE WHEN ${ref}.id IS NULL THEN NULL ELSE jsonb_build_object('id', ${ref}.id, 'type', ${ref}.rel_type, ` +
    `'src', ${ref}.src, 'dst', ${ref}.dst, 'properties', ${ref}.properties) END`
  );
}

/** The relationships of a variable-length match (an array of edge ids) as a JSON list in path order. */
export function relList(ids: string): string {
  return (
    `CASE WHEN ${ids} IS NULL THEN NULL ELSE (SELECT coalesce(jsonb_agg(${relObject('e')} ORDER BY u.ord), '[]'::jsonb) ` +
    `FROM unnest(${ids}) WITH ORDINALITY AS u(eid, ord) JOIN twin_edges AS e ON e.id = u.eid) END`
  );
}

/**
 * Sort keys giving Cypher's order for a jsonb value on PostgreSQL and PGlite alike: by type (map, list, string,
 * boolean, number, then null last), numbers numerically, strings by code point (COLLATE "C", not the server locale).
 */
export function orderKeys(x: string, descending: boolean): string[] {
  const dir = descending ? ' DESC' : ' ASC';
  return [
    `CASE jsonb_typeof(${x}) WHEN 'object' THEN 0 WHEN 'array' THEN 1 WHEN 'string' THEN 2 ` +
      `WHEN 'boolean' THEN 3 WHEN 'number' THEN 4 ELSE 5 END${dir}`,
    `CASE WHEN jsonb_typeof(${x}) = 'number' THEN (${x})::numeric END${dir}`,
    `(CASE WHEN jsonb_typeof(${x}) = 'string' THEN ${x} #>> '{}' END) COLLATE "C"${dir}`,
    `${x}${dir}`,
  ];
}

/** The text of a jsonb string value (SQL NULL for other types). */
export function textOf(x: string): string {
  return `(CASE WHEN jsonb_typeof(${x}) = 'string' THEN ${x} #>> '{}' END)`;
}

/** True when `v` can be bound as a value of a column of type `type` (so the comparison can stay native). */
export function fitsColumn(type: ColType, v: unknown): boolean {
  switch (type) {
    case 'text':
      return typeof v === 'string';
    case 'uuid':
      return isUuid(v);
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2 ** 31 - 1;
    case 'bool':
      return typeof v === 'boolean';
    case 'ts':
      return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v));
    default:
      return false;
  }
}

const CASTS = { text: 'text', uuid: 'uuid', int: 'integer', bool: 'boolean', ts: 'timestamptz' } as const;

/** The parameter cast for a column type (only for types `fitsColumn` accepts). */
export function castOf(type: Exclude<ColType, 'jsonb'>): (typeof CASTS)[keyof typeof CASTS] {
  return CASTS[type];
}
