import crypto from 'node:crypto';
import { ActorError } from '../../brokers/errors.ts';
import { createBlobStore } from '../../brokers/blobs.ts';
import type { Queryable } from '../../brokers/db/index.ts';
import type { DefinitionWriteParams, RecordNodeParams } from '../../contracts/actions/twin.actions.ts';
import { objectKeyOf } from '../../contracts/twin-keys.ts';
import { refOf } from './keys.ts';
import { writeDefinition, type DefinitionWritten } from './definitions.ts';
import { insertEdge, insertNode, type NodeRow } from './nodes.store.ts';
import { resolveNode } from './reads.ts';
import { fenceRunWrite } from './run-fence.ts';

export interface Pin {
  ref: string;
  node_id: string;
}

/** Resolves `depends_on` pins to exact revisions before anything is written; an unknown one fails the whole write. */
export async function resolvePins(q: Queryable, refs: string[], runId?: string): Promise<Pin[]> {
  const pins: Pin[] = [];
  for (const ref of refs) {
    const node = await resolveNode(q, { item_key: ref, run_id: runId }).catch((err: unknown) => {
      if (err instanceof ActorError)
        throw new ActorError(err.type, `depends_on ${ref}: ${err.message}; nothing was written`, { depends_on: ref });
      throw err;
    });
    pins.push({ ref: refOf(node.item_key!, node.revision!), node_id: node.id });
  }
  return pins;
}

async function attachFiles(
  q: Queryable,
  node: NodeRow,
  p: { file?: RecordNodeParams['file']; extra_files?: RecordNodeParams['extra_files'] },
): Promise<NodeRow> {
  const blobs = createBlobStore(q);
  for (const f of p.extra_files ?? []) await blobs.link(objectKeyOf(node.id, f.name), f.sha256, node.id, q);
  if (!p.file) return node;
  const key = objectKeyOf(node.id, p.file.name);
  await blobs.link(key, p.file.sha256, node.id, q);
  const { rows } = await q.query<NodeRow>(
    `UPDATE twin_nodes SET object_key = $2, content_hash = $3, properties = properties || $4 WHERE id = $1 RETURNING *`,
    [node.id, key, p.file.sha256, JSON.stringify({ file_name: p.file.name, media_type: p.file.media_type })],
  );
  return rows[0];
}

/** An append-only record (decision, document, simulation result, ...) with its pins, edges and files; one transaction. */
export async function recordNode(
  q: Queryable,
  p: RecordNodeParams,
  now: Date,
): Promise<{ node: NodeRow; pinned: Pin[] }> {
  await fenceRunWrite(q, p.writer);
  const pinned = await resolvePins(q, p.depends_on, p.writer.run_id);
  const node = await insertNode(
    q,
    {
      id: p.id ?? crypto.randomUUID(),
      project_id: p.project_id,
      node_type: p.node_type,
      name: p.name,
      properties: { ...p.properties, ...(pinned.length ? { depends_on: pinned.map((x) => x.ref) } : {}) },
      run_id: p.writer.run_id ?? null,
      phase: p.writer.phase ?? null,
      attempt: p.writer.attempt ?? null,
      author: p.writer.author ?? null,
    },
    now,
  );
  for (const pin of pinned) await insertEdge(q, node.id, pin.node_id, 'DEPENDS_ON', { ref: pin.ref });
  for (const e of p.edges) await insertEdge(q, node.id, e.dst, e.rel_type, e.properties);
  return { node: await attachFiles(q, node, p), pinned };
}

/** A definition write with its pins and file; one transaction. */
export async function writeDefinitionWithFiles(
  q: Queryable,
  p: DefinitionWriteParams,
  now: Date,
): Promise<DefinitionWritten & { pinned: Pin[] }> {
  await fenceRunWrite(q, p.writer);
  const pinned = await resolvePins(q, p.depends_on, p.writer.run_id);
  const written = await writeDefinition(
    q,
    { ...p, properties: { ...p.properties, ...(pinned.length ? { depends_on: pinned.map((x) => x.ref) } : {}) } },
    now,
  );
  for (const pin of pinned) await insertEdge(q, written.node.id, pin.node_id, 'DEPENDS_ON', { ref: pin.ref });
  const node = await attachFiles(q, written.node, p);
  return { ...written, node, pinned };
}
