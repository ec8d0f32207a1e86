import {
  SessionOpArgs,
  SessionQueryArgs,
  type ExportModelInput,
  type SessionOpName,
  type SessionQueryName,
} from '../../../contracts/cad-session.ts';
import { measureDistanceBetween } from 'replicad';
import { KernelArgumentError, KernelError } from '../errors.ts';
import { propertiesOf } from '../measure.ts';
import { SessionDoc } from './doc.ts';
import { exportModel } from './export.ts';
import { featureOps } from './features.ts';
import { addJoint, createAssembly, executeCode, importStep, listJoints, transformObject } from './objects.ts';

/** A recorded feature as the thread replays it; import features carry the imported file's bytes. */
export interface FeatureInput {
  seq: number;
  op: SessionOpName;
  args: Record<string, unknown>;
  blob?: Uint8Array;
}

/** What the owner asks of a session's document. */
export type SessionAction =
  | { type: 'op'; op: SessionOpName; args: Record<string, unknown>; blob?: Uint8Array }
  | { type: 'query'; name: SessionQueryName; args: Record<string, unknown> }
  | { type: 'export'; args: ExportModelInput }
  | { type: 'drop' };

/** Session documents of this thread, by session id, least recently used first. */
const docs = new Map<string, SessionDoc>();
/** Documents kept per thread; the least recently used beyond this is dropped (its owner replays it when needed). */
const MAX_DOCS = 32;

/** Marks a document as just used and drops the least recently used ones past MAX_DOCS. */
function touch(id: string, doc: SessionDoc): void {
  docs.delete(id);
  docs.set(id, doc);
  for (const [old, d] of docs) {
    if (docs.size <= MAX_DOCS) break;
    d.dispose();
    docs.delete(old);
  }
}

/** Applies one operation (arguments already validated by the owner against SessionOpArgs). */
async function applyOp(
  doc: SessionDoc,
  op: SessionOpName,
  rawArgs: Record<string, unknown>,
  blob?: Uint8Array,
): Promise<{ result: Record<string, unknown>; recorded: boolean }> {
  const args = SessionOpArgs[op].parse(rawArgs) as never;
  switch (op) {
    case 'transform_object':
      return { result: transformObject(doc, args), recorded: true };
    case 'import_step':
      if (!blob) throw new KernelArgumentError('import_step needs the file bytes');
      return { result: await importStep(doc, args, blob), recorded: true };
    case 'execute_code': {
      const r = await executeCode(doc, args);
      return { result: r, recorded: r.mutated };
    }
    case 'create_assembly':
      return { result: createAssembly(doc, args), recorded: true };
    case 'add_assembly_joint':
      return { result: addJoint(doc, args), recorded: true };
    default:
      return { result: featureOps[op](doc, args), recorded: true };
  }
}

/** Read-only queries: describe_model, measure (global frame), list_joints; describe_session is answered by the owner. */
function query(doc: SessionDoc, name: SessionQueryName, rawArgs: Record<string, unknown>): Record<string, unknown> {
  const args = SessionQueryArgs[name].parse(rawArgs) as Record<string, string | undefined>;
  if (name === 'list_joints') return listJoints(doc, args);
  if (name === 'measure') {
    if (!args.object_id) {
      const solids = [...doc.objects.values()].filter((o) => o.shape);
      return { objects: solids.map((o) => doc.describe(o)), frame: 'global' };
    }
    const o = doc.solid(args.object_id);
    const out: Record<string, unknown> = { ...doc.describe(o), frame: 'global' };
    if (args.other_id) {
      const other = doc.solid(args.other_id);
      out.distance_mm = Math.round(Math.abs(measureDistanceBetween(o.shape, other.shape)) * 1e6) / 1e6;
      out.other = { obj_id: other.id, ...propertiesOf(other.shape) };
    }
    return out;
  }
  return {
    objects: [...doc.objects.values()].map((o) => doc.describe(o)),
    object_count: doc.objects.size,
    applied_features: doc.seq,
    frame: 'global',
  };
}

/** Rebuilds a document from its history; a feature that fails now names itself (the history is the source of truth). */
async function rebuild(sessionId: string, history: FeatureInput[]): Promise<SessionDoc> {
  docs.get(sessionId)?.dispose();
  docs.delete(sessionId);
  const doc = new SessionDoc();
  for (const f of history) {
    try {
      await applyOp(doc, f.op, f.args, f.blob);
    } catch (err) {
      doc.dispose();
      throw new KernelError(
        `replaying feature ${f.seq} (${f.op}) of session ${sessionId} failed: ${(err as Error).message}`,
        { seq: f.seq, op: f.op },
      );
    }
    doc.seq = f.seq;
  }
  docs.set(sessionId, doc);
  return doc;
}

/**
 * The one session task: finds the session's document at `expected_seq` features (rebuilding it from `history` when
 * this thread lost it or holds another version, or answering `needs_replay` when no history came along), then runs
 * the action. A failed operation drops the document, so the next call replays a clean copy.
 */
async function session(input: {
  session_id: string;
  expected_seq: number;
  history?: FeatureInput[];
  action: SessionAction;
}) {
  const { session_id: id, action } = input;
  if (action.type === 'drop') {
    docs.get(id)?.dispose();
    return { dropped: docs.delete(id) };
  }
  let doc = docs.get(id);
  if (!doc || doc.seq !== input.expected_seq) {
    if (!input.history && input.expected_seq !== 0) return { needs_replay: true as const };
    doc = await rebuild(id, input.history ?? []);
  }
  touch(id, doc);
  if (action.type === 'query') return { result: query(doc, action.name, action.args) };
  if (action.type === 'export') {
    const { step_bytes, ...rest } = await exportModel(doc, action.args);
    return { result: rest, step: step_bytes };
  }
  try {
    const { result, recorded } = await applyOp(doc, action.op, action.args, action.blob);
    if (recorded) doc.seq = input.expected_seq + 1;
    return { result, recorded, seq: doc.seq };
  } catch (err) {
    doc.dispose();
    docs.delete(id);
    throw err;
  }
}

/** Session tasks of a kernel thread. */
export const sessionTasks = { session };
