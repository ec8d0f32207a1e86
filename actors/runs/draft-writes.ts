import type { Context } from 'moleculer';
import { call, type Caller } from '../../brokers/actions.ts';
import type { Logger } from '../../brokers/logger.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import type { RunEffect } from './run.commands.ts';
import type { RunState } from './run.types.ts';

/**
 * Commits the run's drafts at the gate, fenced by the owner's epoch and only the gate's own phase and attempt
 * (decision 0142). A conflict is confirmed once more before it counts: a commit that waited on another commit of the
 * same drafts sees the old draft rows under READ COMMITTED and reports their base as stale; the second look finds
 * them committed (idempotent).
 */
export async function commitGateDrafts(
  ctx: Context,
  runId: string,
  fx: Extract<RunEffect, { type: 'commitDrafts' }>,
  s: RunState,
  epoch: number,
): Promise<{ ok: boolean; message: string }> {
  const params = {
    run_id: runId,
    project_id: s.project_id,
    gate_id: fx.gate_id,
    gate_name: fx.gate_name,
    approver: fx.approver,
    reason: fx.reason,
    run_epoch: epoch,
    phase: fx.phase,
    attempt: s.phases[fx.phase].attempt,
  };
  let out = await call(ctx, TwinActions.commitChangeSet, params);
  if (out.status === 'conflict') out = await call(ctx, TwinActions.commitChangeSet, params);
  if (out.status === 'committed') return { ok: true, message: '' };
  return {
    ok: false,
    message: `patch conflict: drafts were based on revisions that changed: ${out.conflicts.map((c) => `${c.key} (draft on @${c.base_revision}, head now @${c.head_revision})`).join(', ')}; nothing was committed, retry rebases`,
  };
}

/**
 * Runs a `closeDrafts` effect: checks that the epoch it was started under still holds the run (an ended run's close
 * too: its copy is dropped, the epoch stays), then closes the drafts the effect names under that epoch; the twin checks
 * the epoch again in its statement, so a close whose owner was taken over in between is refused (decision 0142).
 */
export async function closeRunDrafts(
  bus: Caller,
  runId: string,
  fx: Extract<RunEffect, { type: 'closeDrafts' }>,
  epoch: number,
  deps: {
    owns(): Promise<boolean>;
    pause?: (step: 'before_close', runId: string) => Promise<void> | void;
    log: Logger;
  },
): Promise<void> {
  if (!(await deps.owns())) {
    deps.log.warn({ run: runId, epoch }, 'drafts close of a former owner dropped');
    return;
  }
  await deps.pause?.('before_close', runId);
  const { drafts, status, reason } = fx;
  await call(bus, TwinActions.closeDrafts, {
    run_id: runId,
    status,
    reason,
    run_epoch: epoch,
    ...(drafts ? { drafts } : {}),
  });
}
