import { call, type Caller } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Logger } from '../../brokers/logger.ts';
import { HoldsActions } from '../../contracts/actions/approvals.actions.ts';
import { RunsActions } from '../../contracts/actions/runs.actions.ts';
import { TwinApprovalActions } from '../../contracts/actions/twin-approvals.actions.ts';
import type { DecisionRecord, LedgerKind } from '../../contracts/approvals.ts';
import { gateItem, ledgerItem, nodeItem } from './approval.items.ts';
import type { ApprovalEffect, DecideCommand, SourceItem } from './approval.machine.ts';
import type { ApprovalStore, GateCommand } from './approval.store.ts';
import { authorityEffect } from './authority.ts';
import type { Deliverer } from './deliverer.ts';
import type { LoopRunner } from './design-loop.ts';
import { enqueue } from './outbox.ts';
import type { createGateSource } from './sources/gates.source.ts';
import { notOwner, unreachable } from './unreachable.ts';

/** What an effect needs besides the item and the command. */
export interface EffectDeps {
  store: ApprovalStore;
  db: Parameters<typeof enqueue>[0];
  deliverer: Deliverer;
  gates: ReturnType<typeof createGateSource>;
  log: Logger;
  now: Date;
  idem: string;
  /** Runs an approved loop's next iteration after the decision is answered, on the broker (not the request's ctx). */
  loops: LoopRunner;
  broker: Caller;
}

const FLOW_KINDS: readonly LedgerKind[] = ['flow_patch', 'flow_version', 'flow_proposal'];

const record = (c: DecideCommand, now: Date): DecisionRecord => ({
  decision: c.decision,
  reason: c.reason,
  ...c.decider,
  decided_at: now.toISOString(),
  ...(c.override_reason?.trim() ? { override_reason: c.override_reason.trim() } : {}),
});

/**
 * Delivers an accepted decision to the owner of the item (ARCHITECTURE "approvals": decisions are routed to the owning
 * actor), where each kind's decision is persisted (SPEC "Where each decision is persisted"). Refusals of the owner pass
 * through with their code. What must still reach an owner after this request goes through the outbox and its one
 * deliverer: a gate decision the runs actor could not take now (recorded with the queue's record of it, answered 503),
 * and the state of a flow approval (its row is written before the ledger decision; 503 when the write waits).
 * Answers the item as the owner now has it (null: read it again).
 */
export async function runEffect(
  via: Caller,
  item: SourceItem,
  fx: ApprovalEffect,
  c: DecideCommand,
  d: EffectDeps,
): Promise<SourceItem | null> {
  if (fx.type === 'twin.decide') {
    const node = await call(via, TwinApprovalActions.decide, {
      node_id: fx.node_id,
      kind: fx.kind,
      decision: c.decision as 'approve' | 'reject',
      reason: c.reason,
      decider: c.decider,
    });
    if (node.node_type === 'design_loop') d.loops.start(d.broker, node);
    return nodeItem(node);
  }
  if (fx.type === 'holds.decide') {
    const flow = FLOW_KINDS.includes(fx.kind);
    const key = `flow:${fx.ledger_id}`;
    if (flow)
      await enqueue(
        d.db,
        {
          key,
          effect: 'runs.settleFlow',
          approval_id: item.id,
          target_id: fx.ledger_id,
          payload: { ledger_id: fx.ledger_id },
        },
        d.now,
      );
    // A person's approval of a human-authority request takes effect first; a refusal leaves it pending (authority.ts).
    const auth =
      fx.kind === 'human_authority' && c.decision === 'approve' ? await authorityEffect(via, item, c) : undefined;
    const rec = await call(via, HoldsActions.decide, {
      id: fx.ledger_id,
      decision: c.decision as 'approve' | 'reject',
      reason: c.reason,
      decider: c.decider,
      ...(auth ? { outcome: auth.outcome } : {}),
    });
    if (auth?.loop) d.loops.start(d.broker, auth.loop);
    const written = flow ? await d.deliverer.one(via, key) : undefined;
    if (written?.type === 'waiting') {
      d.log.warn(
        { approval_id: item.id, why: written.why },
        'flow approval state not written; the deliverer writes it again',
      );
      throw new ActorError(
        'SERVICE_UNAVAILABLE',
        `the ${c.decision} of ${item.id} is recorded in the ledger but the ${fx.kind} state could not be written yet; it is written again shortly`,
        { approval_id: item.id, recorded: true },
      );
    }
    return ledgerItem(rec);
  }
  if (fx.type === 'save_gone_gate') {
    if (!(await d.store.saveGone(item.id, fx.gate_id, item.project_id ?? null, record(c, d.now), d.now)))
      throw new ActorError('CONFLICT', `approval ${item.id} is already decided`, { approval_id: item.id });
    d.log.info(
      { approval_id: item.id, gate_id: fx.gate_id },
      "gate decision saved: the run's workflow no longer exists, no run to signal",
    );
    return null;
  }
  const command: GateCommand = {
    run_id: fx.run_id,
    gate_id: fx.gate_id,
    decision: c.decision,
    reason: c.reason,
    to_phase: c.to_phase,
    idem: d.idem,
    ...(c.override_reason !== undefined ? { override_reason: c.override_reason } : {}),
  };
  const sent = await call(via, RunsActions.decide, { ...command, identity: c.decider }).then(
    (view) => ({ view }),
    (err: unknown) => ({ err }),
  );
  if ('view' in sent) return fresh(d, fx.run_id, sent.view);
  // Delivered by the outbox with the same key: the runs actor was not reachable, the run's ownership moved under the
  // command, or it committed the drafts of an approve but could not store the decision (the gate stays open, and a
  // later decision on it would not see the commit).
  const err = sent.err;
  const committed = err instanceof ActorError && (err.data as { committed?: boolean } | undefined)?.committed === true;
  if (!unreachable(err) && !committed && !notOwner(err)) throw err;
  if (!(await d.store.recordDelivery(item.id, item.project_id ?? null, record(c, d.now), command, d.now))) {
    throw new ActorError(
      'CONFLICT',
      `approval ${item.id}: a decision on gate ${fx.gate_id} already waits for delivery`,
      { approval_id: item.id },
    );
  }
  if (notOwner(err)) {
    // The run's new owner takes it now: one attempt of the deliverer, at once.
    const out = await d.deliverer.one(via, `gate:${d.idem}`);
    if (out?.type === 'delivered') return fresh(d, fx.run_id, out.view);
  }
  const why = committed
    ? 'the run committed its drafts but could not store the decision yet'
    : 'the runs actor is not reachable';
  d.log.warn(
    { approval_id: item.id, gate_id: fx.gate_id, err: (err as Error).message },
    `gate decision recorded, ${why}: delivered shortly`,
  );
  throw new ActorError(
    'SERVICE_UNAVAILABLE',
    `the ${c.decision} of ${item.id} is recorded but could not be delivered to the run now (${why}); it is delivered ${committed ? 'again shortly' : 'when the runs actor is back'}`,
    {
      approval_id: item.id,
      recorded: true,
    },
  );
}

/** The gate item after a delivered decision, from the run's answer; the queue keeps the run's new row meanwhile. */
function fresh(
  d: EffectDeps,
  runId: string,
  view: Parameters<typeof gateItem>[0]['view'] | undefined,
): SourceItem | null {
  d.gates.refresh(runId);
  return view ? gateItem({ view }) : null;
}
