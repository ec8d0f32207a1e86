import type { ServiceBroker, ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { ApprovalsActions as A } from '../../contracts/actions/approvals.actions.ts';
import type { Db } from '../../brokers/db/index.ts';
import { decide, forViewer, type ApprovalEnv } from './approval.machine.ts';
import { createApprovalStore, type ApprovalStore } from './approval.store.ts';
import { ApprovalsInternal } from './approvals.contract.ts';
import { runEffect } from './approvals.effects.ts';
import { listItems, loadItem, type QueueSources } from './approvals.read.ts';
import { createDeliverer, type Deliverer } from './deliverer.ts';
import { createLoopRunner } from './design-loop.ts';
import { createOutbox } from './outbox.ts';
import { appliedItem, appliedRepeat, targetRefusal } from './target.ts';
import { createGateSource } from './sources/gates.source.ts';
import { attachVerdicts } from './verdicts.ts';

/** Real-time period of the deliverer's tick; which outbox rows are due is decided by the injected clock (STYLE R13). */
const TICK_MS = 1000;
/** Ticks between looks for design loops left iterating by a stopped node. */
const LOOP_TICKS = 60;

/** Test seams of the actor (never set in production). */
export interface ApprovalsOptions {
  /** Runs just before the item is read again after its decision was applied; a throw stands for that read failing. */
  readAfterWrite?: (approvalId: string) => void | Promise<void>;
}

/** Prefix of the idempotency keys the gateway makes up when a request sends none (not remembered). */
export const AUTO_KEY = 'auto:';

/**
 * The `approvals` actor: the one normalized queue (SPEC "Approval item") over gates, the tool-approval ledger, design
 * changes, design loops, sketches and drawings. `list` and `get` compute every field per item and per viewer; `decide`
 * is the one body of decision code behind every approval route: parse → load the item → the pure rules → deliver to
 * the owner (runs, holds, twin) → answer the item as it now stands.
 */
export function createApprovalsService(infra: Infra, opts: ApprovalsOptions = {}): ServiceSchema {
  const env: ApprovalEnv = { allowAgentHumanAuthority: infra.config.SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY };
  let src: QueueSources;
  let store: ApprovalStore;
  let db: Db;
  let deliverer: Deliverer;
  let timer: NodeJS.Timeout | undefined;
  const failed = (err: unknown) => infra.log.warn({ err }, 'approval delivery failed');
  const loops = createLoopRunner(infra.log, infra.now);
  let ticks = 0;
  let broker: ServiceBroker;

  return {
    name: 'approvals',

    actions: {
      list: action(A.list, async (q, ctx) => {
        const { items, unscoped } = await listItems(ctx, src, q);
        return {
          items: (await attachVerdicts(ctx, items, infra.log)).map((i) => forViewer(i, q.viewer, env)),
          unscoped_count: q.project_id !== undefined ? unscoped : 0,
        };
      }),

      get: action(A.get, async (p, ctx) => {
        const [item] = await attachVerdicts(ctx, [await loadItem(ctx, src, p.id)], infra.log);
        return forViewer(item, p.viewer, env);
      }),

      decide: action(A.decide, async (p, ctx) => {
        const receivedAt = infra.now();
        const item = await loadItem(ctx, src, p.id, true);
        // The same Idempotency-Key again: applied once already, answer the item as it stands.
        const clientKey = !p.idem.startsWith(AUTO_KEY);
        if (
          item.source.type === 'gate'
            ? item.source.idems.includes(p.idem)
            : clientKey && (await store.seen(p.idem, item.id))
        )
          return forViewer(item, p.decider, env);
        // The same decision again, naming the state it was applied to (a reply that was lost): answered as applied.
        if (targetRefusal(item, p.target) && appliedRepeat(item, { ...p, approver: p.decider.approver }, receivedAt))
          // Without the verdict table (one evaluation per repeat, and a burst of repeats would each run one): the
          // item itself is the answer; a read of it carries the table.
          return forViewer(item, p.decider, env);
        const cmd = {
          decision: p.decision,
          reason: p.reason,
          to_phase: p.to_phase,
          decider: p.decider,
          target: p.target,
          ...(p.override_reason !== undefined ? { override_reason: p.override_reason } : {}),
        };
        const out = decide(item, cmd, env);
        if ('refusal' in out)
          throw new ActorError(out.refusal.code, out.refusal.message, {
            approval_id: item.id,
            status: item.status,
            kind: item.kind,
          });
        const after = await runEffect(ctx, item, out.effect, cmd, {
          store,
          db,
          deliverer,
          gates: src.gates,
          log: infra.log,
          now: infra.now(),
          idem: p.idem,
          loops,
          broker,
        });
        if (clientKey && item.source.type !== 'gate') await store.remember(p.idem, item.id, infra.now());
        infra.log.info(
          {
            approval_id: item.id,
            kind: item.kind,
            decision: p.decision,
            approver: p.decider.approver,
            verified: p.decider.approver_verified,
            surface: p.decider.surface,
          },
          'approval decided',
        );
        // Applied: a read that fails from here on does not turn the answer into an error (decision 0148).
        const answer = await (async () => {
          await opts.readAfterWrite?.(p.id);
          return (await attachVerdicts(ctx, [after ?? (await loadItem(ctx, src, p.id))], infra.log))[0];
        })().catch((err: unknown) => {
          infra.log.warn(
            { err, approval_id: item.id },
            'decision applied; the item could not be read again: answered from the write',
          );
          return after ?? appliedItem(item, cmd, infra.now());
        });
        return forViewer(answer, p.decider, env);
      }),

      deliver: action(ApprovalsInternal.deliver, async (_p, ctx) => {
        const [passed, loops_resumed] = await Promise.all([deliverer.pass(ctx), loops.resumeStale(broker)]);
        return { ...passed, loops_resumed };
      }),
    },

    events: {
      '$services.changed'(this: { broker: ServiceBroker }) {
        if (deliverer) void deliverer.wake(this.broker).catch(failed);
      },
    },

    async started() {
      db = await infra.db();
      broker = this.broker;
      src = { gates: createGateSource(db, infra.log, broker) };
      store = createApprovalStore(db);
      deliverer = createDeliverer(createOutbox(db), infra.log, infra.now);
      timer = setInterval(() => {
        void deliverer.pass(broker).catch(failed);
        if (++ticks % LOOP_TICKS === 0) void loops.resumeStale(broker).catch(failed);
      }, TICK_MS);
      timer.unref();
    },

    async stopped() {
      clearInterval(timer);
      await src?.gates.settled();
    },
  };
}
