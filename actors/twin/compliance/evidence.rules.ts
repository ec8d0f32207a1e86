import type { ComplianceEvidence, EvidenceKind } from '../../../contracts/compliance.ts';
import { EVIDENCE_KIND_OF_NODE_TYPE, ownValue } from './methods.rules.ts';

/**
 * Pure rules (no I/O): the twin rows the compliance reads answer, turned into evidence nodes: what each states, which
 * geometry revision a result analysed, and whether it is stale (its input changed since).
 */

/** The head revision of an item (constraint set, prd, cad_model, technical_drawing). */
export interface HeadRow {
  key: string;
  item_type: string;
  revision: number;
  node_id: string;
  name: string;
  properties: Record<string, unknown>;
  author: string | null;
  change_reason: string | null;
  stale: boolean;
  stale_reason: string | null;
  created_at: string;
  /** The run that wrote this revision, else the run owning its item (decision 0100): its requirements are judged on that run's evidence. */
  run_id?: string | null;
}

/** An append-only record that may be evidence (simulation result, test result, ERC/DRC report, decision). */
export interface RecordRow {
  id: string;
  node_type: string;
  name: string;
  properties: Record<string, unknown>;
  stale: boolean;
  stale_reason: string | null;
  created_at: string;
}

/** A geometry revision a result pins, with its item's head now. */
export interface GeometryPin {
  node_id: string;
  item_key: string | null;
  revision: number | null;
  head_revision: number | null;
  head_node_id: string | null;
}

/** A node as evidence. `usable: false` is listed but never decides an item (the note says why). */
export interface EvidenceNode extends Omit<ComplianceEvidence, 'verifies'> {
  usable: boolean;
  /** What it states: properties, plus `measurements` and a JSON object `content`. */
  values: Record<string, unknown>;
  /** `depends_on` pins (`KEY@n`) of a decision. */
  pins: string[];
  /** Title and decision text of a decision. */
  text: string;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A JSON object written as a record's content (a tool's result recorded as it came), else nothing. */
function contentObject(content: unknown): Record<string, unknown> {
  if (typeof content !== 'string' || !content.trimStart().startsWith('{')) return {};
  try {
    const parsed: unknown = JSON.parse(content);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The values a node states: a JSON content object, its `measurements`, then the properties (which win). */
export function statedValues(props: Record<string, unknown>): Record<string, unknown> {
  const content = contentObject(props.content);
  const measured = (o: Record<string, unknown>) => (isRecord(o.measurements) ? o.measurements : {});
  return { ...content, ...measured(content), ...props, ...measured(props) };
}

const base = (kind: EvidenceKind, r: { node_type: string; name: string; created_at: string }) => ({
  kind,
  node_type: r.node_type,
  name: r.name,
  created_at: r.created_at,
  analysed_geometry: null,
  pins: [] as string[],
  text: '',
  usable: true,
  note: '',
});

/**
 * A simulation result is current only while the geometry revision it analysed is its item's head (SPEC Twin rule 1);
 * on an older revision it is stale, never current. Without a pinned geometry it verifies nothing (a number with no
 * geometry is no analysis); one of a draft not yet approved counts once the draft is the head.
 */
function simulationResult(r: RecordRow, pins: Map<string, GeometryPin>): EvidenceNode {
  const node: EvidenceNode = {
    ...base('simulation_result', r),
    node_id: r.id,
    item_ref: null,
    revision: null,
    stale: r.stale,
    stale_reason: r.stale_reason,
    values: r.properties,
  };
  const ag = r.properties.analysed_geometry;
  const pin = isRecord(ag) && typeof ag.node_id === 'string' ? pins.get(ag.node_id) : undefined;
  if (!isRecord(ag) || !pin?.item_key || pin.revision === null) {
    return { ...node, usable: false, note: 'pins no geometry revision of this twin: verifies nothing' };
  }
  const ref = `${pin.item_key}@${pin.revision}`;
  const current = pin.head_node_id === pin.node_id;
  const analysed = {
    node_id: pin.node_id,
    ref,
    revision: pin.revision,
    content_hash: str(ag.content_hash) || null,
    current,
  };
  if (!current && pin.revision > (pin.head_revision ?? 0)) {
    return {
      ...node,
      analysed_geometry: analysed,
      usable: false,
      note: `analyses ${ref}, a draft: counts once approved`,
    };
  }
  const head = `${pin.item_key}@${pin.head_revision}`;
  return {
    ...node,
    analysed_geometry: analysed,
    stale: r.stale || !current,
    stale_reason: r.stale_reason ?? (current ? null : `analysed ${ref}; the geometry is now ${head}`),
  };
}

function record(r: RecordRow, kind: EvidenceKind): EvidenceNode {
  const node: EvidenceNode = {
    ...base(kind, r),
    node_id: r.id,
    item_ref: null,
    revision: null,
    stale: r.stale,
    stale_reason: r.stale_reason,
    values: kind === 'design_decision' ? {} : statedValues(r.properties),
  };
  if (kind !== 'design_decision') return node;
  const pins = Array.isArray(r.properties.depends_on)
    ? r.properties.depends_on.filter((p) => typeof p === 'string')
    : [];
  return { ...node, pins, text: `${r.name}\n${str(r.properties.decision)}` };
}

function head(h: HeadRow, kind: EvidenceKind): EvidenceNode {
  return {
    ...base(kind, { node_type: h.item_type, name: h.name, created_at: h.created_at }),
    node_id: h.node_id,
    item_ref: `${h.key}@${h.revision}`,
    revision: h.revision,
    stale: h.stale,
    stale_reason: h.stale_reason,
    values: statedValues(h.properties),
  };
}

/** Every evidence node of the project, newest first: the records, and the heads of geometry and drawing items. */
export function evidenceNodes(heads: HeadRow[], records: RecordRow[], pins: GeometryPin[]): EvidenceNode[] {
  const byId = new Map(pins.map((p) => [p.node_id, p]));
  const out: EvidenceNode[] = [];
  for (const r of records) {
    const kind = ownValue(EVIDENCE_KIND_OF_NODE_TYPE, r.node_type);
    if (kind === 'simulation_result') out.push(simulationResult(r, byId));
    else if (kind && kind !== 'geometry' && kind !== 'technical_drawing') out.push(record(r, kind));
  }
  for (const h of heads) {
    const kind = ownValue(EVIDENCE_KIND_OF_NODE_TYPE, h.item_type);
    if (kind === 'geometry' || kind === 'technical_drawing') out.push(head(h, kind));
  }
  return out.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

/** The geometry node ids the results pin (what the reads must look up). */
export function pinnedGeometryIds(records: RecordRow[]): string[] {
  const ids = records
    .filter((r) => r.node_type === 'simulation_result')
    .map((r) => (isRecord(r.properties.analysed_geometry) ? r.properties.analysed_geometry.node_id : undefined))
    .filter((id): id is string => typeof id === 'string');
  return [...new Set(ids)];
}
