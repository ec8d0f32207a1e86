import { call, type Caller } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Logger } from '../../brokers/logger.ts';
import { HoldsActions } from '../../contracts/actions/approvals.actions.ts';
import { RunsActions } from '../../contracts/actions/runs.actions.ts';
import { TwinApprovalActions } from '../../contracts/actions/twin-approvals.actions.ts';
import type { DecisionRecord } from '../../contracts/approvals.ts';
import { isNotOwner } from '../runs/run-host.ts';
import { gateItem, ledgerItem, nodeItem } from './approval.items.ts';
import type { ApprovalEffect, DecideCommand, SourceItem } from './approval.machine.ts';
import type { ApprovalStore, Delivery } from './approval.store.ts';

/** Moleculer's own errors that mean the owning actor could not be reached (or did not answer): nothing came back. */
const UNREACHABLE = new Set(['SERVICE_NOT_FOUND', 'SERVICE_NOT_AVAILABLE', 'REQUEST_REJECTED', 'REQUEST_TIMEOUT', 'REQUEST_SKIPPED', 'QUEUE_FULL', 'BROKER_NOT_STARTED', 'INVALID_ENDPOINT']);

/** True when a call failed because its actor was not reachable, as opposed to an answer (ActorError) from it. */
export function unreachable(err: unknown): boolean {
  return !(err instanceof ActorError) && UNREACHABLE.has(String((err as { type?: string })?.type ?? ''));
}

/** What an effect needs besides the item and the command. */
export interface EffectDeps {
  store: ApprovalStore;
  log: Logger;
  now: Date;
  idem: string;
}

const record = (c: DecideCommand, now: Date): DecisionRecord => ({ decision: c.decision, reason: c.reason, ...c.decider, decided_at: now.toISOString() });

/**
 * Delivers an accepted decision to the owner of the item (ARCHITECTURE "approvals": decisions are routed to the owning
 * actor), where each kind's decision is persisted (SPEC "Where each decision is persisted"). Refusals of the owner pass
 * through with their code. A gate decision the runs actor could not take (unreachable) is recorded for delivery and
 * answered 503; a flow approval whose flow row could not be written is 503 too and written again by the deliverer.
 * Answers the item as the owner now has it (null: read it again).
 */
export async function runEffect(via: Caller, item: SourceItem, fx: ApprovalEffect, c: DecideCommand, d: EffectDeps): Promise<SourceItem | null> {
  if (fx.type === 'twin.decide') {
    return nodeItem(await call(via, TwinApprovalActions.decide, { node_id: fx.node_id, kind: fx.kind, decision: c.decision as 'approve' | 'reject', reason: c.reason, decider: c.decider }));
  }
  if (fx.type === 'holds.decide') {
    const rec = await call(via, HoldsActions.decide, { id: fx.ledger_id, decision: c.decision as 'approve' | 'reject', reason: c.reason, decider: c.decider });
    try {
      await d.store.settleFlow(fx.kind, rec.detail, c.decision === 'approve', c.decider.approver, d.now);
    } catch (err) {
      d.log.warn({ approval_id: item.id, err: (err as Error).message }, 'flow approval state not written; the deliverer writes it again');
      throw new ActorError('SERVICE_UNAVAILABLE', `the ${c.decision} of ${item.id} is recorded in the ledger but the ${fx.kind} state could not be written yet; it is written again shortly`, { approval_id: item.id, recorded: true });
    }
    return ledgerItem(rec);
  }
  if (fx.type === 'save_gone_gate') {
    if (!(await d.store.saveGone(item.id, fx.gate_id, item.project_id ?? null, record(c, d.now), d.now))) throw new ActorError('CONFLICT', `approval ${item.id} is already decided`, { approval_id: item.id });
    d.log.info({ approval_id: item.id, gate_id: fx.gate_id }, 'gate decision saved: the run\'s workflow no longer exists, no run to signal');
    return null;
  }
  const command: Delivery['command'] = { run_id: fx.run_id, gate_id: fx.gate_id, decision: c.decision, reason: c.reason, to_phase: c.to_phase, idem: d.idem };
  try {
    return gateItem({ view: await decideRun(via, { ...command, identity: c.decider }) });
  } catch (err) {
    // Delivered later with the same key: the runs actor was not reachable, or it committed the drafts of an approve
    // but could not store the decision (the gate stays open, and a later decision on it would not see the commit).
    const committed = err instanceof ActorError && (err.data as { committed?: boolean } | undefined)?.committed === true;
    if (!unreachable(err) && !committed) throw err;
    if (!(await d.store.recordDelivery(item.id, item.project_id ?? null, record(c, d.now), command, d.now))) {
      throw new ActorError('CONFLICT', `approval ${item.id}: a decision on gate ${fx.gate_id} already waits for delivery`, { approval_id: item.id });
    }
    const why = committed ? 'the run committed its drafts but could not store the decision yet' : 'the runs actor is not reachable';
    d.log.warn({ approval_id: item.id, gate_id: fx.gate_id, err: (err as Error).message }, `gate decision recorded, ${why}: delivered shortly`);
    throw new ActorError('SERVICE_UNAVAILABLE', `the ${c.decision} of ${item.id} is recorded but could not be delivered to the run now (${why}); it is delivered ${committed ? 'again shortly' : 'when the runs actor is back'}`, {
      approval_id: item.id,
      recorded: true,
    });
  }
}

/**
 * `runs.decide`, sent again (same idempotency key, so applied once) while the run's ownership moves under it: a
 * concurrent command ended or took over the run and this copy's answer would be stale (the runs actor says retry).
 */
async function decideRun(via: Caller, params: Parameters<typeof call<typeof RunsActions.decide>>[2]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(via, RunsActions.decide, params);
    } catch (err) {
      if (!isNotOwner(err) || attempt >= 4) throw err;
      await new Promise((r) => setTimeout(r, 10 * attempt));
    }
  }
}

/** Sends the waiting gate decisions and re-writes flow approval states (the `approvals.deliver` action and the timer). */
export async function deliverWaiting(via: Caller, store: ApprovalStore, log: Logger, now: Date, flowsSince?: Date) {
  let delivered = 0;
  let refused = 0;
  let waiting = 0;
  for (const d of await store.deliveries()) {
    const { approver, approver_verified, surface, on_behalf_of, agent } = d.decision;
    try {
      await decideRun(via, { ...d.command, identity: { approver, approver_verified, surface, on_behalf_of, agent } });
      await store.settle(d);
      delivered++;
      log.info({ approval_id: d.approval_id, gate_id: d.target_id }, 'recorded gate decision delivered');
    } catch (err) {
      const retry = unreachable(err) || (err instanceof ActorError && err.retryable);
      if (retry) {
        waiting++;
        await store.failedAttempt(d, (err as Error).message, now);
      } else {
        refused++;
        await store.settle(d);
        log.warn({ approval_id: d.approval_id, gate_id: d.target_id, err: (err as Error).message }, 'recorded gate decision refused by the run: removed');
      }
    }
  }
  let flows = 0;
  for (const f of await store.unsettledFlows(flowsSince)) if (await store.settleFlow(f.kind, f.detail, f.status === 'approved', String(f.decision?.approver ?? 'unknown'), now)) flows++;
  return { delivered, refused, waiting, flows_settled: flows };
}
