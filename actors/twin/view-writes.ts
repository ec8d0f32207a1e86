import type { z } from 'zod';
import type { Queryable } from '../../brokers/db/index.ts';
import type { ImportFileParamsSchema } from '../../contracts/actions/twin-views.actions.ts';
import type { ConstraintCreateBody, ConstraintCreateResult, ImportResult } from '../../contracts/twin-forms.ts';
import { DEFINITION_TYPES, objectKeyOf } from '../../contracts/twin-keys.ts';
import { refOf } from './keys.ts';
import { getNodeRow } from './nodes.store.ts';
import { recordNode, writeDefinitionWithFiles } from './records.ts';

/** Name of the constraint set a project gets when a constraint is created before it has any. */
export const DEFAULT_CONSTRAINT_SET = 'Project constraints';

/** Next free `C<n>` id of a constraint set. */
function nextConstraintId(constraints: Record<string, unknown>[]): string {
  const used = constraints
    .map((c) => /^C(\d+)$/.exec(String(c.id ?? ''))?.[1])
    .filter(Boolean)
    .map(Number);
  return `C${Math.max(constraints.length, ...used) + 1}`;
}

/**
 * Adds one constraint to the project's constraint set as its next revision, in the caller's transaction: the set is
 * the project's most recently updated constraint set (its item row locked, so concurrent adds queue), or a new
 * `Project constraints` set when the project has none.
 */
export async function addConstraint(
  q: Queryable,
  p: ConstraintCreateBody & { author: string },
  now: Date,
): Promise<ConstraintCreateResult> {
  const { rows } = await q.query<{ key: string; name: string; head_revision: number; head_node_id: string | null }>(
    `SELECT key, name, head_revision, head_node_id FROM twin_items WHERE project_id = $1 AND item_type = 'constraint_set' AND head_revision > 0
     ORDER BY updated_at DESC, key LIMIT 1 FOR UPDATE`,
    [p.projectId],
  );
  const set = rows[0];
  const head = set?.head_node_id ? await getNodeRow(q, set.head_node_id) : undefined;
  const existing = Array.isArray(head?.properties.constraints)
    ? (head.properties.constraints as Record<string, unknown>[])
    : [];
  const id = nextConstraintId(existing);
  const constraint = {
    id,
    name: p.name,
    metric: p.metric,
    operator: p.operator,
    limit: p.limit,
    unit: p.unit ?? '',
    severity: p.severity,
    verification_method: p.verificationMethod,
    message: p.message,
    ...(p.targetNodeType ? { target_node_type: p.targetNodeType } : {}),
    ...(p.expectedEvidence ? { expected_evidence: p.expectedEvidence } : {}),
  };
  const w = await writeDefinitionWithFiles(
    q,
    {
      project_id: p.projectId,
      item_type: 'constraint_set',
      name: set?.name ?? DEFAULT_CONSTRAINT_SET,
      properties: { ...(head?.properties ?? {}), constraints: [...existing, constraint] },
      item_key: set ? refOf(set.key, set.head_revision) : undefined,
      change_reason: `constraint ${id} (${p.name}) added`,
      depends_on: [],
      writer: { author: p.author },
    },
    now,
  );
  return {
    constraintId: id,
    setWorkProductId: w.node.id,
    item_key: w.item_key,
    revision: w.revision,
    item_ref: w.item_ref,
  };
}

const BY_EXTENSION: Record<string, string> = {
  step: 'cad_model',
  stp: 'cad_model',
  iges: 'cad_model',
  igs: 'cad_model',
};

/** The work-product type of an import: `wp_type` when given, STEP/IGES files as cad_model, anything else a document. */
export function importType(wpType: string | undefined, fileName: string): string {
  if (wpType) return wpType;
  return BY_EXTENSION[fileName.split('.').pop()?.toLowerCase() ?? ''] ?? 'document';
}

/**
 * Records an imported file (already in the blob store) as a work product: a definition type becomes the next revision
 * of the item named by the file name (same name, same project = same item), anything else an append-only record.
 */
export async function importFile(
  q: Queryable,
  p: z.output<typeof ImportFileParamsSchema>,
  now: Date,
): Promise<ImportResult> {
  const nodeType = importType(p.wp_type, p.name);
  const properties = {
    description: p.description,
    source: 'import',
    size_bytes: p.size_bytes,
    ...(p.domain ? { domain: p.domain } : {}),
  };
  const common = {
    node_type: nodeType,
    name: p.name,
    object_key: '',
    content_hash: p.file.sha256,
    size_bytes: p.size_bytes,
    media_type: p.file.media_type,
  };
  if (DEFINITION_TYPES.has(nodeType)) {
    const w = await writeDefinitionWithFiles(
      q,
      {
        project_id: p.project_id,
        item_type: nodeType,
        name: p.name,
        properties,
        file: p.file,
        depends_on: [],
        change_reason: 'imported',
        writer: p.writer,
      },
      now,
    );
    return {
      ...common,
      node_id: w.node.id,
      object_key: w.node.object_key ?? objectKeyOf(w.node.id, p.file.name),
      item_key: w.item_key,
      revision: w.revision,
      item_ref: w.item_ref,
    };
  }
  const r = await recordNode(
    q,
    {
      project_id: p.project_id,
      node_type: nodeType,
      name: p.name,
      properties,
      file: p.file,
      extra_files: [],
      depends_on: [],
      edges: [],
      writer: p.writer,
    },
    now,
  );
  return {
    ...common,
    node_id: r.node.id,
    object_key: r.node.object_key ?? objectKeyOf(r.node.id, p.file.name),
    item_key: null,
    revision: null,
    item_ref: null,
  };
}
