import type { Queryable } from '../../brokers/db/index.ts';
import type { TwinEdge } from '../../contracts/twin-nodes.ts';
import type { NodeSummary, NodeView } from '../../contracts/twin-views.ts';
import { refOf } from './keys.ts';
import { edgesOf, toEdge, toNode, visibleTo, type NodeRow } from './nodes.store.ts';
import { resolveNode } from './reads.ts';

/** Edge types of an item's revision chain; `links` leaves them out (the revision index shows them). */
const CHAIN = `('REVISION_OF', 'SUPERSEDES')`;

/** Node types that are assemblies whatever their properties say. */
const ASSEMBLY_TYPES = new Set(['assembly', 'cad_assembly']);

/**
 * The parts of an assembly node, from its properties (`assemblyParts`, `assembly_parts`, else `parts`), or undefined
 * when the node is not an assembly: an assembly is a node of type assembly, or one whose properties say
 * `assembly: true` / `kind: 'assembly'` or carry a parts list.
 */
export function assemblyPartsOf(node: {
  node_type: string;
  properties: Record<string, unknown>;
}): Record<string, unknown>[] | undefined {
  const p = node.properties ?? {};
  const list = [p.assemblyParts, p.assembly_parts, p.parts].find(Array.isArray) as unknown[] | undefined;
  const isAssembly =
    ASSEMBLY_TYPES.has(node.node_type) || p.assembly === true || p.kind === 'assembly' || list !== undefined;
  if (!isAssembly) return undefined;
  return (list ?? []).filter(
    (x): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x),
  );
}

/** Visible nodes (records, committed and approved revisions), newest first, filtered by project and type. */
export async function listNodes(
  q: Queryable,
  p: { project_id?: string; node_type?: string; limit: number; offset: number },
) {
  const where = `${visibleTo('n', 'NULL')} AND ($1::text IS NULL OR n.project_id = $1) AND ($2::text IS NULL OR n.node_type = $2)`;
  const args = [p.project_id ?? null, p.node_type ?? null];
  const [page, total] = await Promise.all([
    q.query<NodeRow>(`SELECT * FROM twin_nodes n WHERE ${where} ORDER BY n.created_at DESC, n.id LIMIT $3 OFFSET $4`, [
      ...args,
      p.limit,
      p.offset,
    ]),
    q.query<{ n: string }>(`SELECT count(*) AS n FROM twin_nodes n WHERE ${where}`, args),
  ]);
  return { nodes: page.rows.map(toNode), total: Number(total.rows[0].n) };
}

/** One node with its edges; an assembly adds `assemblyParts`. Unknown ids and other runs' open drafts are NOT_FOUND. */
export async function nodeView(q: Queryable, nodeId: string): Promise<NodeView> {
  const node = await resolveNode(q, { node_id: nodeId });
  const parts = assemblyPartsOf(node);
  return { ...toNode(node), edges: await edgesOf(q, node.id), ...(parts ? { assemblyParts: parts } : {}) };
}

type EdgeRow = Parameters<typeof toEdge>[0];
interface EndCols {
  o_id: string;
  o_project: string | null;
  o_type: string;
  o_name: string;
  o_key: string | null;
  o_rev: number | null;
}
const summary = (r: EndCols): NodeSummary => ({
  id: r.o_id,
  project_id: r.o_project,
  node_type: r.o_type,
  name: r.o_name,
  item_ref: r.o_key && r.o_rev ? refOf(r.o_key, r.o_rev) : null,
});
const endCols = (a: string, prefix = 'o') =>
  `${a}.id AS ${prefix}_id, ${a}.project_id AS ${prefix}_project, ${a}.node_type AS ${prefix}_type, ${a}.name AS ${prefix}_name, ${a}.item_key AS ${prefix}_key, ${a}.revision AS ${prefix}_rev`;
const edgeOnly = (r: EdgeRow): TwinEdge =>
  toEdge({
    id: r.id,
    src: r.src,
    dst: r.dst,
    rel_type: r.rel_type,
    properties: r.properties,
    created_at: r.created_at,
  });

/** Edges of a node, each with its direction from the node and the visible node at the other end. */
export async function relationships(q: Queryable, nodeId: string, relType?: string) {
  const node = await resolveNode(q, { node_id: nodeId });
  const { rows } = await q.query<EdgeRow & EndCols>(
    `SELECT e.*, ${endCols('o')} FROM twin_edges e
     JOIN twin_nodes o ON o.id = CASE WHEN e.src = $1 THEN e.dst ELSE e.src END
     WHERE (e.src = $1 OR e.dst = $1) AND ($2::text IS NULL OR e.rel_type = $2) AND ${visibleTo('o', 'NULL')}
     ORDER BY e.id`,
    [node.id, relType ?? null],
  );
  const relationships = rows.map((r) => ({
    ...edgeOnly(r),
    direction: r.src === node.id ? ('out' as const) : ('in' as const),
    other: summary(r),
  }));
  return { node_id: node.id, relationships, total: relationships.length };
}

/** Edges between visible work products whose source is in the project, oldest first; revision-chain edges left out. */
export async function links(q: Queryable, p: { project_id?: string; limit: number; offset: number }) {
  const from = `FROM twin_edges e JOIN twin_nodes s ON s.id = e.src JOIN twin_nodes d ON d.id = e.dst
     WHERE ($1::text IS NULL OR s.project_id = $1) AND e.rel_type NOT IN ${CHAIN} AND ${visibleTo('s', 'NULL')} AND ${visibleTo('d', 'NULL')}`;
  const [page, total] = await Promise.all([
    q.query<
      EdgeRow &
        EndCols & {
          s_id: string;
          s_project: string | null;
          s_type: string;
          s_name: string;
          s_key: string | null;
          s_rev: number | null;
        }
    >(`SELECT e.*, ${endCols('s', 's')}, ${endCols('d')} ${from} ORDER BY e.id LIMIT $2 OFFSET $3`, [
      p.project_id ?? null,
      p.limit,
      p.offset,
    ]),
    q.query<{ n: string }>(`SELECT count(*) AS n ${from}`, [p.project_id ?? null]),
  ]);
  const linksOut = page.rows.map((r) => ({
    ...edgeOnly(r),
    src_node: summary({
      o_id: r.s_id,
      o_project: r.s_project,
      o_type: r.s_type,
      o_name: r.s_name,
      o_key: r.s_key,
      o_rev: r.s_rev,
    }),
    dst_node: summary(r),
  }));
  return { links: linksOut, total: Number(total.rows[0].n) };
}
