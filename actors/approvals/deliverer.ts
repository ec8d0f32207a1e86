import { call, type Caller } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Logger } from '../../brokers/logger.ts';
import { FlowApprovalKindSchema, RunsQueueActions } from '../../contracts/actions/approval-sources.actions.ts';
import { HoldsActions } from '../../contracts/actions/approvals.actions.ts';
import { RunsActions, type RunView } from '../../contracts/actions/runs.actions.ts';
import type { Outbox, OutboxRow } from './outbox.ts';
import { notOwner, unreachable } from './unreachable.ts';

/** How one attempt ended: the owner took it (a gate's run view with it), refused it, or it waits for a later attempt. */
type Outcome =
  { type: 'delivered'; view?: RunView } | { type: 'refused'; why: string } | { type: 'waiting'; why: string };

/** An owner's error that means "not now": unreachable, a retryable answer, or a run whose ownership is moving. */
const retryLater = (err: unknown) => unreachable(err) || notOwner(err) || (err instanceof ActorError && err.retryable);

/** Sends one outbox row to its owner with the row's idempotency key. */
async function send(via: Caller, r: OutboxRow): Promise<Outcome> {
  if (r.effect === 'runs.decide') {
    const view = await call(
      via,
      RunsActions.decide,
      r.payload as Parameters<typeof call<typeof RunsActions.decide>>[2],
    );
    return { type: 'delivered', view };
  }
  // A flow approval's state follows its ledger record (the holds actor's): written once the record is decided.
  const rec = await call(via, HoldsActions.get, { id: String(r.payload.ledger_id) });
  if (rec.status === 'awaiting_approval') return { type: 'waiting', why: 'the ledger record is not decided yet' };
  if (rec.status !== 'approved' && rec.status !== 'rejected')
    return { type: 'refused', why: `the ledger record ended ${rec.status}` };
  const decision = rec.decision ?? {};
  await call(via, RunsQueueActions.settleFlow, {
    kind: FlowApprovalKindSchema.parse(rec.kind),
    detail: rec.detail,
    approved: rec.status === 'approved',
    decided_by: String(decision.approver ?? 'unknown'),
    decided_at: String(decision.decided_at ?? rec.updated_at),
  });
  return { type: 'delivered' };
}

/**
 * The one deliverer of the approvals actor (issue 13 point 5): sends the outbox rows due at the injected clock, one
 * pass at a time, each with its idempotency key (a gate decision's key is the run's dedup key; a flow state is written
 * only while pending). A row the owner took or refused goes; any other outcome moves it by the backoff. A real-time
 * tick, the owner joining the bus and `approvals.deliver` start passes; nothing else retries.
 */
export function createDeliverer(outbox: Outbox, log: Logger, now: () => Date) {
  let chain: Promise<unknown> = Promise.resolve();

  async function attempt(via: Caller, r: OutboxRow): Promise<Outcome> {
    const out = await send(via, r).catch((err: unknown): Outcome =>
      retryLater(err)
        ? { type: 'waiting', why: (err as Error).message }
        : { type: 'refused', why: (err as Error).message },
    );
    if (out.type === 'waiting') await outbox.later(r, out.why, now());
    else await outbox.done(r);
    if (out.type === 'refused')
      log.warn(
        { approval_id: r.approval_id, target: r.target_id, effect: r.effect, why: out.why },
        'recorded decision refused by its owner: removed',
      );
    if (out.type === 'delivered')
      log.info(
        { approval_id: r.approval_id, target: r.target_id, effect: r.effect, attempts: r.attempts + 1 },
        'recorded decision delivered',
      );
    return out;
  }

  async function pass(via: Caller) {
    const counts = { delivered: 0, refused: 0, waiting: 0, flows_settled: 0 };
    for (const r of await outbox.due(now())) {
      const out = await attempt(via, r);
      if (out.type === 'delivered') counts[r.effect === 'runs.decide' ? 'delivered' : 'flows_settled']++;
      if (out.type === 'refused') counts.refused++;
    }
    return { ...counts, waiting: await outbox.size() };
  }

  /** Runs `fn` after the pass in progress (one at a time). */
  const queued = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn);
    chain = run.catch(() => undefined);
    return run;
  };

  return {
    /** Delivers the rows due now. */
    pass: (via: Caller) => queued(() => pass(via)),
    /** Delivers one row now whatever its time (a decision just recorded); undefined when it is gone already. */
    one: (via: Caller, key: string) =>
      queued(async () => {
        const [r] = await outbox.due(now(), key);
        return r ? attempt(via, r) : undefined;
      }),
    /** The owner joined the bus: every row is due now, and a pass runs. */
    wake: (via: Caller) =>
      queued(async () => {
        await outbox.wake(now());
        return pass(via);
      }),
  };
}

export type Deliverer = ReturnType<typeof createDeliverer>;
