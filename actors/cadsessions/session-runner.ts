import path from 'node:path';
import { ActorError } from '../../brokers/errors.ts';
import type { Logger } from '../../brokers/logger.ts';
import type { CadSession } from '../../contracts/actions/cadsessions.actions.ts';
import {
  SessionOpArgs,
  type ExportModelInput,
  type SessionOpName,
  type SessionQueryName,
} from '../../contracts/cad-session.ts';
import type { KernelPool } from '../../workers/cad/host/pool.ts';
import { KernelTaskError } from '../../workers/cad/host/protocol.ts';
import type { FeatureInput, SessionAction } from '../../workers/cad/session/tasks.ts';
import type { Workspace } from '../adapters/kit/workspace.ts';
import type { CadSessionStore } from './cadsessions.store.ts';

/** What the runner works with: the store (authority), the kernel pool (placement of documents), the workspace. */
export interface RunnerDeps {
  store: CadSessionStore;
  pool(): KernelPool;
  workspace: Workspace;
  nodeId(): string;
  now(): Date;
  log: Logger;
}

/** A kernel failure as a wire error the adapter maps back: invalid arguments as VALIDATION_FAILED, the rest CONFLICT. */
function wireError(err: unknown): unknown {
  if (!(err instanceof KernelTaskError)) return err;
  const data = { kernel_kind: err.kind, ...(err.details ?? {}) };
  return new ActorError(err.kind === 'invalid' ? 'VALIDATION_FAILED' : 'CONFLICT', err.message, data);
}

/**
 * The command path of the cadsessions actor. One command at a time per session on this node (a promise chain);
 * each command loads the session row, runs on the kernel thread the session is pinned to (that thread replays the
 * history first when it does not hold the document at the row's feature count), and appends a recorded feature
 * conditionally on the count it started from, so two nodes that both think they own a session never fork it.
 */
export function createSessionRunner(deps: RunnerDeps) {
  const mailboxes = new Map<string, Promise<unknown>>();
  const running = new Map<string, AbortController>();

  function serialize<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = mailboxes.get(id) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    mailboxes.set(id, tail);
    void tail.then(() => mailboxes.get(id) === tail && mailboxes.delete(id));
    return next;
  }

  async function load(id: string, mustBeOpen = true): Promise<CadSession> {
    const s = await deps.store.get(id);
    if (!s)
      throw new ActorError('NOT_FOUND', `unknown CAD session ${id}: open one with cadkernel.open_session`, {
        session_id: id,
      });
    if (mustBeOpen && s.status !== 'open')
      throw new ActorError('CONFLICT', `CAD session ${id} is closed`, { session_id: id, status: s.status });
    return s;
  }

  async function history(id: string): Promise<FeatureInput[]> {
    const features = await deps.store.history(id);
    return Promise.all(
      features.map(async (f) => {
        if (f.op !== 'import_step') return f;
        const blob = await deps.store.getFile(String(f.args.blob_sha256));
        if (!blob)
          throw new ActorError('CONFLICT', `the file imported by feature ${f.seq} of session ${id} is missing`);
        return { ...f, blob: new Uint8Array(blob) };
      }),
    );
  }

  /** Runs an action on the session's pinned thread, replaying the history when the thread asks for it. */
  async function onThread(id: string, expectedSeq: number, action: SessionAction) {
    const slot = deps.pool().slotFor(id);
    const ctl = new AbortController();
    running.set(id, ctl);
    try {
      const input = { session_id: id, expected_seq: expectedSeq, action };
      let r = await deps.pool().run('session', input, { slot, signal: ctl.signal });
      if ('needs_replay' in r) {
        deps.log.info({ session_id: id, features: expectedSeq, slot }, 'cad session replayed from its history');
        r = await deps.pool().run('session', { ...input, history: await history(id) }, { slot, signal: ctl.signal });
      }
      if ('needs_replay' in r) throw new ActorError('INTERNAL', `session ${id} could not be rebuilt`);
      return r;
    } catch (err) {
      throw wireError(err);
    } finally {
      if (running.get(id) === ctl) running.delete(id);
    }
  }

  return {
    command(id: string, op: SessionOpName, rawArgs: Record<string, unknown>, filePath?: string) {
      return serialize(id, async () => {
        const s = await load(id);
        let args = rawArgs;
        let blob: Uint8Array | undefined;
        if (op === 'import_step') {
          if (!filePath)
            throw new ActorError('VALIDATION_FAILED', 'import_step needs file_path', {
              issues: [{ path: 'file_path', message: 'required' }],
            });
          const bytes = await deps.workspace.read(filePath, 'file_path').catch((e: Error) => {
            throw new ActorError('VALIDATION_FAILED', e.message, {
              issues: [{ path: 'file_path', message: e.message }],
            });
          });
          args = {
            ...rawArgs,
            blob_sha256: await deps.store.putFile(bytes, deps.now()),
            file_name: path.basename(filePath),
          };
          blob = new Uint8Array(bytes);
        }
        const parsed = SessionOpArgs[op].safeParse(args);
        if (!parsed.success)
          throw ActorError.validation(
            parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message })),
          );
        const r = (await onThread(id, s.feature_count, {
          type: 'op',
          op,
          args: parsed.data as Record<string, unknown>,
          blob,
        })) as { result: Record<string, unknown>; recorded: boolean };
        if (!r.recorded) return { result: r.result, recorded: false, feature_count: s.feature_count };
        if (
          !(await deps.store.append(
            id,
            s.feature_count,
            op,
            parsed.data as Record<string, unknown>,
            deps.nodeId(),
            deps.now(),
          ))
        ) {
          await deps
            .pool()
            .run(
              'session',
              { session_id: id, expected_seq: 0, action: { type: 'drop' } },
              { slot: deps.pool().slotFor(id) },
            );
          throw new ActorError(
            'CONFLICT',
            `CAD session ${id} changed while ${op} ran (another node, or it was closed); nothing was recorded, retry`,
            { session_id: id, retryable: true },
          );
        }
        return { result: r.result, recorded: true, feature_count: s.feature_count + 1 };
      });
    },

    query(id: string, name: SessionQueryName, args: Record<string, unknown>) {
      return serialize(id, async () => {
        const s = await load(id, false);
        return (await onThread(id, s.feature_count, { type: 'query', name, args })) as {
          result: Record<string, unknown>;
        };
      });
    },

    export(id: string, args: ExportModelInput) {
      return serialize(id, async () => {
        const s = await load(id);
        const r = (await onThread(id, s.feature_count, { type: 'export', args })) as {
          result: Record<string, unknown> & { obj_id: string };
          step: Uint8Array;
        };
        const step = Buffer.from(r.step);
        await deps.store.stash(id, r.result.obj_id, step, s.feature_count, deps.now());
        return { result: r.result, step_base64: step.toString('base64'), obj_id: r.result.obj_id };
      });
    },

    close(id: string) {
      return serialize(id, async () => {
        await load(id, false);
        const closed = (await deps.store.close(id, deps.now()))!;
        // A thread released while idle took the document with it: closing never starts a kernel just to drop it.
        await deps
          .pool()
          .run(
            'session',
            { session_id: id, expected_seq: 0, action: { type: 'drop' } },
            { slot: deps.pool().slotFor(id), ifRunning: true },
          )
          .catch(() => undefined);
        return closed;
      });
    },

    /** Kills the running command of a session (its thread is replaced; the document replays on the next call). */
    cancel(id: string, reason: string): boolean {
      const ctl = running.get(id);
      ctl?.abort(new Error(reason));
      return !!ctl;
    },
    load,
  };
}

/** The runner's interface. */
export type SessionRunner = ReturnType<typeof createSessionRunner>;
