import crypto from 'node:crypto';
import { isUuid, type Queryable } from '../../brokers/db/index.ts';
import type {
  AnalysedGeometryView,
  LoadCase,
  LoadCaseCreate,
  LoadCaseList,
  SimResultEntry,
  SimResultList,
} from '../../contracts/simulation-views.ts';
import { refOf } from './keys.ts';
import type { NodeRow } from './nodes.store.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const records = (v: unknown) => (Array.isArray(v) ? v.filter(isRecord) : []);
const numOrNull = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** `{quantity: {min, max}}` keeping only well-formed ranges. */
function ranges(v: unknown): Record<string, { min: number; max: number }> {
  if (!isRecord(v)) return {};
  const out: Record<string, { min: number; max: number }> = {};
  for (const [k, r] of Object.entries(v))
    if (isRecord(r) && typeof r.min === 'number' && typeof r.max === 'number') out[k] = { min: r.min, max: r.max };
  return out;
}

interface GeomRow {
  id: string;
  item_key: string | null;
  revision: number | null;
  head_node_id: string | null;
}

/** The pinned geometry of each result with its key, ref and whether it is still its item's head ("Analysed ref"). */
async function analysedGeometries(q: Queryable, results: NodeRow[]): Promise<Map<string, GeomRow>> {
  const ids = [
    ...new Set(
      results.map((r) => (r.properties.analysed_geometry as { node_id?: unknown } | undefined)?.node_id).filter(isUuid),
    ),
  ];
  if (!ids.length) return new Map();
  const { rows } = await q.query<GeomRow>(
    `SELECT n.id, n.item_key, n.revision, i.head_node_id FROM twin_nodes n LEFT JOIN twin_items i ON i.key = n.item_key WHERE n.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** A result node as a listing entry (SPEC "Simulation result listing entry"): its numbers, then the camelCase fields. */
export function toListingEntry(n: NodeRow, geom: GeomRow | undefined): SimResultEntry {
  const {
    field_stored,
    field_object_key: _key,
    field_content_hash,
    field_size_bytes,
    field_format: _format,
    field_analysis_type,
    field_quantities,
    field_ranges,
    field_store_error,
    analysed_geometry,
    load_case_spec,
    fixtures,
    loads,
    mesh_convergence,
    suspect,
    file_name: _f,
    media_type: _m,
    ...numbers
  } = n.properties;
  let analysedGeometry: AnalysedGeometryView | null = null;
  if (isRecord(analysed_geometry) && typeof analysed_geometry.node_id === 'string') {
    const key = geom?.item_key ?? null;
    const revision = numOrNull(analysed_geometry.revision) ?? geom?.revision ?? null;
    analysedGeometry = {
      node_id: analysed_geometry.node_id,
      revision,
      name: typeof analysed_geometry.name === 'string' ? analysed_geometry.name : '',
      content_hash: typeof analysed_geometry.content_hash === 'string' ? analysed_geometry.content_hash : null,
      key,
      ref: key && revision ? refOf(key, revision) : null,
      current: !!geom && geom.head_node_id === geom.id,
    };
  }
  return {
    ...numbers,
    id: n.id,
    name: n.name,
    project_id: n.project_id,
    created_at: n.created_at.toISOString(),
    stale: n.stale,
    staleReason: n.stale_reason,
    hasField: field_stored === true,
    analysisType: typeof field_analysis_type === 'string' ? field_analysis_type : null,
    fieldQuantities: Array.isArray(field_quantities)
      ? field_quantities.filter((x): x is string => typeof x === 'string')
      : [],
    fieldRanges: ranges(field_ranges),
    fieldContentHash: field_stored === true && typeof field_content_hash === 'string' ? field_content_hash : null,
    fieldSizeBytes: field_stored === true ? numOrNull(field_size_bytes) : null,
    ...(typeof field_store_error === 'string' ? { fieldStoreError: field_store_error } : {}),
    analysedGeometry,
    loadCaseSpec: isRecord(load_case_spec) ? load_case_spec : null,
    fixtures: records(fixtures),
    loads: records(loads),
    meshConvergence: isRecord(mesh_convergence) ? (mesh_convergence as SimResultEntry['meshConvergence']) : null,
    suspect: Array.isArray(suspect) ? suspect.filter((x): x is string => typeof x === 'string') : [],
  };
}

/**
 * Simulation results (nodes of type simulation_result), newest first, as listing entries; with a project filter
 * `unscoped_count` counts the results left out for having no project.
 */
export async function simResults(
  q: Queryable,
  p: { project_id?: string; limit: number; offset: number },
): Promise<SimResultList> {
  const where = `n.node_type = 'simulation_result' AND ($1::text IS NULL OR n.project_id = $1)`;
  const unscopedSql = `SELECT count(*) AS n FROM twin_nodes n WHERE n.node_type = 'simulation_result' AND n.project_id IS NULL`;
  const [page, total, unscoped] = await Promise.all([
    q.query<NodeRow>(`SELECT * FROM twin_nodes n WHERE ${where} ORDER BY n.created_at DESC, n.id LIMIT $2 OFFSET $3`, [
      p.project_id ?? null,
      p.limit,
      p.offset,
    ]),
    q.query<{ n: string }>(`SELECT count(*) AS n FROM twin_nodes n WHERE ${where}`, [p.project_id ?? null]),
    p.project_id === undefined ? undefined : q.query<{ n: string }>(unscopedSql),
  ]);
  const geoms = await analysedGeometries(q, page.rows);
  const results = page.rows.map((n) =>
    toListingEntry(
      n,
      geoms.get(String((n.properties.analysed_geometry as { node_id?: unknown } | undefined)?.node_id)),
    ),
  );
  return { results, total: Number(total.rows[0].n), unscoped_count: Number(unscoped?.rows[0].n ?? 0) };
}

interface LoadCaseRow {
  id: string;
  project_id: string | null;
  name: string;
  spec: Record<string, unknown>;
  created_at: Date;
}
const toLoadCase = (r: LoadCaseRow): LoadCase => ({ ...r, created_at: r.created_at.toISOString() });

/** Reusable load cases, newest first, filtered by project. */
export async function listLoadCases(
  q: Queryable,
  p: { project_id?: string; limit: number; offset: number },
): Promise<LoadCaseList> {
  const where = '($1::text IS NULL OR project_id = $1)';
  const [page, total] = await Promise.all([
    q.query<LoadCaseRow>(
      `SELECT * FROM simulation_load_cases WHERE ${where} ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [p.project_id ?? null, p.limit, p.offset],
    ),
    q.query<{ n: string }>(`SELECT count(*) AS n FROM simulation_load_cases WHERE ${where}`, [p.project_id ?? null]),
  ]);
  return { load_cases: page.rows.map(toLoadCase), total: Number(total.rows[0].n) };
}

/** Stores a load case under a new id. */
export async function createLoadCase(q: Queryable, p: LoadCaseCreate, now: Date): Promise<LoadCase> {
  const { rows } = await q.query<LoadCaseRow>(
    'INSERT INTO simulation_load_cases (id, project_id, name, spec, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
    [crypto.randomUUID(), p.project_id ?? null, p.name, JSON.stringify(p.spec), now],
  );
  return toLoadCase(rows[0]);
}
