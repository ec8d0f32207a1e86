import { ActorError } from '../../brokers/errors.ts';
import type { Queryable } from '../../brokers/db/index.ts';
import type { DerivedPrd, RequirementRow } from '../../contracts/twin-views.ts';
import { refOf } from './keys.ts';
import { getItem } from './items.store.ts';
import type { NodeRow } from './nodes.store.ts';
import { resolveNode } from './reads.ts';

interface HeadRow {
  key: string;
  item_type: string;
  name: string;
  revision: number;
  node_id: string;
  properties: Record<string, unknown>;
}

const str = (v: unknown, fallback = ''): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? fallback : String(v);

/** Head revisions of the project's items of the given types, by type then name. */
async function heads(q: Queryable, projectId: string | null, types: string[]): Promise<HeadRow[]> {
  const { rows } = await q.query<HeadRow>(
    `SELECT i.key, i.item_type, i.name, i.head_revision AS revision, n.id AS node_id, n.properties
     FROM twin_items i JOIN twin_nodes n ON n.id = i.head_node_id
     WHERE COALESCE(i.project_id, '') = COALESCE($1, '') AND i.item_type = ANY($2::text[]) AND i.head_revision > 0
     ORDER BY i.item_type, i.name, i.key`,
    [projectId, types],
  );
  return rows;
}

/** The requirement rows of one constraint set revision (constraints as `twin.record_constraint_set` stores them). */
export function requirementRows(set: HeadRow): RequirementRow[] {
  const list = Array.isArray(set.properties.constraints)
    ? (set.properties.constraints as Record<string, unknown>[])
    : [];
  return list.map((c, i) => ({
    set_key: set.key,
    set_ref: refOf(set.key, set.revision),
    set_name: set.name,
    id: str(c.id, `C${i + 1}`),
    metric: str(c.metric),
    operator: str(c.operator, '<='),
    limit: typeof c.limit === 'number' ? c.limit : null,
    unit: str(c.unit),
    severity: str(c.severity, 'error'),
    verification_method: str(c.verification_method),
    target_node_type: typeof c.target_node_type === 'string' ? c.target_node_type : null,
    message: str(c.message),
  }));
}

/**
 * The derived requirements document of a prd revision (`KEY@n`, or `KEY` for the head): its prose, plus the project's
 * current intent, needs, objectives and the requirement table of its current constraint sets.
 */
export async function derivedPrd(q: Queryable, ref: string): Promise<DerivedPrd> {
  const node: NodeRow = await resolveNode(q, { item_key: ref }).catch((err: unknown) => {
    if (err instanceof ActorError && err.type === 'VALIDATION_FAILED') throw ActorError.notFound('item', ref);
    throw err;
  });
  if (node.node_type !== 'prd')
    throw ActorError.validation([{ path: 'params.key', message: `${ref} is a ${node.node_type}, not a prd` }]);
  const item = await getItem(q, node.item_key!);
  const all = await heads(q, node.project_id, ['intent', 'stakeholder_need', 'objective', 'constraint_set']);
  const entities = (type: string) =>
    all
      .filter((h) => h.item_type === type)
      .map((h) => ({
        key: h.key,
        ref: refOf(h.key, h.revision),
        node_id: h.node_id,
        name: h.name,
        statement: str(h.properties.statement),
      }));
  return {
    project_id: node.project_id,
    item_key: node.item_key!,
    revision: node.revision!,
    ref: refOf(node.item_key!, node.revision!),
    node_id: node.id,
    name: node.name,
    is_head: item?.head_node_id === node.id,
    prose: str(node.properties.prose ?? node.properties.content),
    requirement_refs: Array.isArray(node.properties.requirement_refs)
      ? node.properties.requirement_refs.map((r) => str(r))
      : [],
    intent: entities('intent'),
    needs: entities('stakeholder_need'),
    objectives: entities('objective'),
    requirements: all.filter((h) => h.item_type === 'constraint_set').flatMap(requirementRows),
  };
}

/** The project's prd item (the most recently updated when there are several); NOT_FOUND when it has none. */
export async function projectPrdRef(q: Queryable, projectId: string): Promise<string> {
  const { rows } = await q.query<{ key: string; head_revision: number }>(
    `SELECT key, head_revision FROM twin_items WHERE project_id = $1 AND item_type = 'prd' AND head_revision > 0 ORDER BY updated_at DESC LIMIT 1`,
    [projectId],
  );
  if (!rows[0]) throw new ActorError('NOT_FOUND', `project ${projectId} has no prd`, { project_id: projectId });
  return refOf(rows[0].key, rows[0].head_revision);
}

const cell = (v: unknown) => str(v).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** Renders a derived prd as markdown: title, prose, intent, needs, objectives and the requirement table. Pure. */
export function renderPrdMarkdown(d: DerivedPrd): string {
  const out = [
    `# ${d.name} (${d.ref})`,
    '',
    `Project ${d.project_id ?? '(none)'}, revision ${d.revision}${d.is_head ? ' (current)' : ''}.`,
    '',
  ];
  out.push('## Requirements prose', '', d.prose.trim() || '_No prose recorded._', '');
  const list = (title: string, items: DerivedPrd['intent']) => {
    out.push(`## ${title}`, '');
    if (!items.length) out.push('_None recorded._');
    for (const e of items) out.push(`- **${e.name}** (${e.ref})${e.statement ? `: ${e.statement}` : ''}`);
    out.push('');
  };
  list('Intent', d.intent);
  list('Stakeholder needs', d.needs);
  list('Objectives', d.objectives);
  out.push('## Requirements', '');
  if (!d.requirements.length) out.push('_No constraint set recorded._', '');
  else {
    out.push(
      '| Set | ID | Metric | Operator | Limit | Unit | Severity | Verification | Message |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of d.requirements) {
      out.push(
        `| ${cell(r.set_ref)} | ${cell(r.id)} | ${cell(r.metric)} | ${cell(r.operator)} | ${cell(r.limit ?? '')} | ${cell(r.unit)} | ${cell(r.severity)} | ${cell(r.verification_method)} | ${cell(r.message)} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}
