import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Queryable } from '../../../brokers/db/index.ts';

/** Item types of the seeded project, with the key prefix the twin gives each. */
const TYPES: [string, string][] = [
  ['cad_model', 'CAD'],
  ['constraint_set', 'CS'],
  ['component_selection', 'CMP'],
  ['intent', 'INT'],
  ['stakeholder_need', 'NEED'],
  ['objective', 'OBJ'],
  ['schematic', 'SCH'],
  ['pcb_layout', 'PCB'],
  ['test_plan', 'TP'],
  ['bom', 'BOM'],
];

/** What `seedTwin` inserted, and the keys the bench drafts. */
export interface SeededTwin {
  items: number;
  revisions: number;
  edges: number;
  /** The item with `deepRevisions` revisions. */
  deepKey: string;
  /** Keys of items a change set may draft (every item but the deep one), in order. */
  keys: { key: string; item_type: string; name: string }[];
  ms: number;
}

/** Inserts rows column-wise with one `INSERT ... SELECT FROM unnest(...)` statement per batch (notes/runtime.md). */
async function insertColumns(
  q: Queryable,
  table: string,
  cols: [string, string][],
  rows: unknown[][],
  batch = 10_000,
): Promise<void> {
  const names = cols.map(([n]) => n).join(', ');
  const args = cols.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  for (let i = 0; i < rows.length; i += batch) {
    const slice = rows.slice(i, i + batch);
    await q.query(
      `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${args})`,
      cols.map((_, c) => slice.map((r) => r[c])),
    );
  }
}

/**
 * A project of `items` items and `revisions` revisions in total through the twin tables: one item with
 * `deepRevisions` revisions, the others sharing the rest evenly; REVISION_OF and SUPERSEDES edges between
 * consecutive revisions; heads on the last revision; then ANALYZE.
 */
export async function seedTwin(
  q: Queryable,
  projectId: string,
  opts = { items: 10_000, revisions: 100_000, deepRevisions: 1_000 },
): Promise<SeededTwin> {
  const t0 = performance.now();
  const counts = Array.from({ length: opts.items }, (_, i) => (i === 0 ? opts.deepRevisions : 0));
  const rest = opts.revisions - opts.deepRevisions;
  const others = opts.items - 1;
  for (let i = 1; i < opts.items; i++) counts[i] = Math.floor(rest / others) + (i - 1 < rest % others ? 1 : 0);
  const base = Date.now() - opts.revisions * 10;
  const nodes: unknown[][] = [];
  const items: unknown[][] = [];
  const edges: unknown[][] = [];
  const keys: SeededTwin['keys'] = [];
  let seq = 0;
  for (let i = 0; i < opts.items; i++) {
    const [type, prefix] = TYPES[i % TYPES.length];
    const key = `${prefix}-BENCH-${String(i).padStart(5, '0')}`;
    const name = `Bench ${type} ${i}`;
    let prev: string | undefined;
    for (let r = 1; r <= counts[i]; r++) {
      const id = crypto.randomUUID();
      const at = new Date(base + seq++ * 10);
      nodes.push([
        id,
        projectId,
        type,
        name,
        JSON.stringify({ v: r, note: `revision ${r} of ${key}` }),
        key,
        r,
        'committed',
        r - 1,
        at,
        at,
      ]);
      if (prev) edges.push([id, prev, 'REVISION_OF'], [id, prev, 'SUPERSEDES']);
      prev = id;
    }
    const at = new Date(base + seq * 10);
    items.push([key, projectId, type, name, counts[i], prev, at, at]);
    if (i > 0) keys.push({ key, item_type: type, name });
  }
  await insertColumns(
    q,
    'twin_nodes',
    [
      ['id', 'uuid'],
      ['project_id', 'text'],
      ['node_type', 'text'],
      ['name', 'text'],
      ['properties', 'jsonb'],
      ['item_key', 'text'],
      ['revision', 'int'],
      ['revision_status', 'text'],
      ['base_revision', 'int'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
    nodes,
  );
  await insertColumns(
    q,
    'twin_items',
    [
      ['key', 'text'],
      ['project_id', 'text'],
      ['item_type', 'text'],
      ['name', 'text'],
      ['head_revision', 'int'],
      ['head_node_id', 'uuid'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
    items,
  );
  await insertColumns(
    q,
    'twin_edges',
    [
      ['src', 'uuid'],
      ['dst', 'uuid'],
      ['rel_type', 'text'],
    ],
    edges,
    20_000,
  );
  await q.query('ANALYZE twin_nodes');
  await q.query('ANALYZE twin_items');
  await q.query('ANALYZE twin_edges');
  return {
    items: items.length,
    revisions: nodes.length,
    edges: edges.length,
    deepKey: String(items[0][0]),
    keys,
    ms: performance.now() - t0,
  };
}

/** Deterministic pseudo-random numbers (mulberry32), so the payload has the same size on every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (v: number) => Number(v.toPrecision(4));

/** A valid `service.sim_field` v1 payload of `vertices` vertices (two triangles each), gzip level 6. */
export function simFieldPayload(vertices: number): Buffer {
  const rand = rng(42);
  const positions = Array.from({ length: vertices * 3 }, () => round(rand() * 100));
  const indices = Array.from({ length: vertices * 6 }, () => Math.floor(rand() * vertices));
  const displacement = Array.from({ length: vertices * 3 }, () => round(rand() * 0.1));
  const scalar = (label: string, unit: string, scale: number) => {
    const values = Array.from({ length: vertices }, () => round(rand() * scale));
    const max = values.reduce((a, b) => Math.max(a, b), -Infinity);
    const at = values.indexOf(max);
    return {
      label,
      unit,
      values,
      min: values.reduce((a, b) => Math.min(a, b), Infinity),
      max,
      peak: { position: positions.slice(at * 3, at * 3 + 3), value: max },
    };
  };
  const payload = {
    format: 'service.sim_field',
    version: 1,
    analysis_type: 'static_stress',
    units: { length: 'mm', stress: 'MPa', displacement: 'mm', temperature: 'C' },
    positions,
    indices,
    displacement,
    fields: {
      von_mises: scalar('Von Mises stress', 'MPa', 300),
      displacement_magnitude: scalar('Displacement', 'mm', 0.2),
    },
    markers: [],
    bbox: { min: [0, 0, 0], max: [100, 100, 100] },
    decimation: { applied: false, source_triangle_count: vertices * 2, cell_size_mm: null },
  };
  return zlib.gzipSync(Buffer.from(JSON.stringify(payload)), { level: 6 });
}

/** A payload just under `bytes` compressed (the spec's 1.5 MB cap): the vertex count scaled from a sample, then trimmed. */
export function simFieldPayloadOf(bytes: number): Buffer {
  const sample = 20_000;
  let vertices = Math.floor((sample * bytes) / simFieldPayload(sample).length);
  for (;;) {
    const p = simFieldPayload(vertices);
    if (p.length <= bytes) return p;
    vertices = Math.floor(vertices * 0.99);
  }
}
