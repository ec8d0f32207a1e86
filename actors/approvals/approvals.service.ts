import type { ServiceBroker, ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { ApprovalsActions as A } from '../../contracts/actions/approvals.actions.ts';
import { DEFAULT_LIMITS } from '../runs/run.types.ts';
import { decide, forViewer, type ApprovalEnv } from './approval.machine.ts';
import { createApprovalStore, type ApprovalStore } from './approval.store.ts';
import { ApprovalsInternal } from './approvals.contract.ts';
import { deliverWaiting, runEffect } from './approvals.effects.ts';
import { listItems, loadItem, type QueueSources } from './approvals.read.ts';
import { createGateSource } from './sources/gates.source.ts';
import { createLedgerSource } from './sources/ledger.source.ts';

/** Real-time period of the deliverer (waiting gate decisions, flow approval states); tests call `approvals.deliver`. */
const DELIVER_MS = 5000;

/** Prefix of the idempotency keys the gateway makes up when a request sends none (not remembered). */
export const AUTO_KEY = 'auto:';

/**
 * The `approvals` actor: the one normalized queue (SPEC "Approval item") over gates, the tool-approval ledger, design
 * changes, design loops, sketches and drawings. `list` and `get` compute every field per item and per viewer; `decide`
 * is the one body of decision code behind every approval route: parse → load the item → the pure rules → deliver to
 * the owner (runs, holds, twin) → answer the item as it now stands.
 */
export function createApprovalsService(infra: Infra): ServiceSchema {
  const env: ApprovalEnv = { allowAgentHumanAuthority: infra.config.SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY };
  const limits = { ...DEFAULT_LIMITS, stallStop: Math.max(2, infra.config.SERVICE_DESIGN_FLOW_STALL_STOP) };
  let src: QueueSources;
  let store: ApprovalStore;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();

  /** Flow approvals are re-settled over the whole ledger once, then over the last ten minutes on each pass. */
  let swept = false;
  /** One delivery pass at a time (the timer, a service joining the bus, or a test's call). */
  const deliver = (via: ServiceBroker | Parameters<typeof deliverWaiting>[0]) => {
    const run = chain.then(async () => {
      const now = infra.now();
      const out = await deliverWaiting(via, store, infra.log, now, swept ? new Date(now.getTime() - 600_000) : undefined);
      swept = true;
      return out;
    });
    chain = run.catch(() => undefined);
    return run;
  };

  return {
    name: 'approvals',

    actions: {
      list: action(A.list, async (q, ctx) => {
        const { items, unscoped } = await listItems(ctx, src, q);
        return { items: items.map((i) => forViewer(i, q.viewer, env)), unscoped_count: q.project_id !== undefined ? unscoped : 0 };
      }),

      get: action(A.get, async (p, ctx) => forViewer(await loadItem(ctx, src, p.id), p.viewer, env)),

      decide: action(A.decide, async (p, ctx) => {
        const item = await loadItem(ctx, src, p.id, true);
        // The same Idempotency-Key again: applied once already, answer the item as it stands.
        const clientKey = !p.idem.startsWith(AUTO_KEY);
        if (item.source.type === 'gate' ? item.source.idems.includes(p.idem) : clientKey && (await store.seen(p.idem, item.id))) return forViewer(item, p.decider, env);
        const cmd = { decision: p.decision, reason: p.reason, to_phase: p.to_phase, decider: p.decider, target: p.target };
        const out = decide(item, cmd, env);
        if ('refusal' in out) throw new ActorError(out.refusal.code, out.refusal.message, { approval_id: item.id, status: item.status, kind: item.kind });
        const after = await runEffect(ctx, item, out.effect, cmd, { store, log: infra.log, now: infra.now(), idem: p.idem });
        if (clientKey && item.source.type !== 'gate') await store.remember(p.idem, item.id, infra.now());
        infra.log.info({ approval_id: item.id, kind: item.kind, decision: p.decision, approver: p.decider.approver, verified: p.decider.approver_verified, surface: p.decider.surface }, 'approval decided');
        return forViewer(after ?? (await loadItem(ctx, src, p.id)), p.decider, env);
      }),

      deliver: action(ApprovalsInternal.deliver, (_p, ctx) => deliver(ctx)),
    },

    events: {
      '$services.changed'(this: { broker: ServiceBroker }) {
        if (store) void deliver(this.broker).catch((err: unknown) => infra.log.warn({ err }, 'approval delivery failed'));
      },
    },

    async started() {
      const db = await infra.db();
      src = { gates: createGateSource(db, limits), ledger: createLedgerSource(db) };
      store = createApprovalStore(db);
      const broker = this.broker;
      timer = setInterval(() => void deliver(broker).catch((err: unknown) => infra.log.warn({ err }, 'approval delivery failed')), DELIVER_MS);
      timer.unref();
    },

    async stopped() {
      clearInterval(timer);
    },
  };
}
