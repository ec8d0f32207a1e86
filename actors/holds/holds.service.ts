import crypto from 'node:crypto';
import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import client from 'prom-client';
import { action, type Caller } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { getOrCreate } from '../../brokers/metrics.ts';
import { TOOLCALL_CANCEL_EVENT, ToolcallCancelSchema } from '../../contracts/actions/adapters.actions.ts';
import { ApprovalsActions, HoldsActions as H, type LedgerRecord } from '../../contracts/actions/approvals.actions.ts';
import { TOOLCALL_CLOSED_EVENT } from '../../contracts/actions/gateway.actions.ts';
import { putQuestion, sendProgress, withdrawQuestion } from './hold.client.ts';
import { answerToCommand, type ElicitationIdentity } from './hold.elicitation.ts';
import {
  approvalIdOf,
  decide,
  ledgerIdOf,
  newFiled,
  newHeldCall,
  planOf,
  progressDue,
  type HoldCommand,
  type HoldEffect,
  type HoldEnv,
  type HoldState,
} from './hold.machine.ts';
import { outcomeOf } from './hold.outcome.ts';
import { createHoldStore, type AliveNode, type HoldStore } from './hold.store.ts';
import { Waiters, type Waiter } from './hold.waiters.ts';
import { ledgerQueueActions } from './ledger.actions.ts';
import { HOLD_SETTLED_EVENT, HoldSettledSchema, HoldsInternal } from './holds.contract.ts';

/** Real-time period of the reaper; what is due is decided by the injected clock (STYLE R13). */
const TICK_MS = 1000;

/** Calls and broadcasts: a handler's ctx (STYLE R11) or the broker at an entry point (the reaper's timer). */
type Via = Caller & { broadcast(event: string, payload?: unknown): Promise<unknown> | void };

/** The wire record of a ledger row (the node and progress timer stay inside the actor). */
const toRecord = ({
  node: _n,
  node_instance: _ni,
  client_node: _c,
  client_instance: _ci,
  next_progress_at: _p,
  ...r
}: HoldState): LedgerRecord => r;

/**
 * The `holds` actor: held tool calls and the tool-approval ledger (table tool_approvals). `request` holds a call until a
 * person answers in the client or the queue, the window ends, or the call is cancelled; `file` records a request with no
 * call waiting; `decide` applies a person's decision; a reaper runs the deadline and progress timer rows.
 */
export function createHoldsService(infra: Infra): ServiceSchema {
  const cfg = infra.config;
  const waiters = new Waiters();
  let store: HoldStore;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  let nodeID = '';
  let broker: ServiceBroker;
  const unreachable = getOrCreate(
    infra.metrics.registry,
    'service_unreachable_approval_hold_total',
    () =>
      new client.Counter({
        name: 'service_unreachable_approval_hold_total',
        help: 'Holds no person can see: no question in the client and no approvals queue on the bus',
        registers: [infra.metrics.registry],
      }),
  );

  const env = (): HoldEnv => ({
    now: infra.now(),
    holdSeconds: cfg.SERVICE_APPROVAL_HOLD_SECONDS,
    progressHoldSeconds: cfg.SERVICE_APPROVAL_HOLD_PROGRESS_SECONDS,
    progressIntervalSeconds: cfg.SERVICE_APPROVAL_PROGRESS_INTERVAL_SECONDS,
    dashboardUrl: cfg.SERVICE_DASHBOARD_URL,
  });

  /**
   * Parse → decide → persist (only while still awaiting) → effects. A guarded move goes first as one conditional UPDATE;
   * when it finds nothing, load → decide says why (404, 409) or, after a race it lost, refuses on the reload.
   */
  async function apply(id: string, cmd: HoldCommand, via: Via): Promise<HoldState> {
    const plan = planOf(cmd, env());
    const moved = plan && (await store.transition(id, plan.patch, infra.now(), plan.guard));
    if (plan && moved) return effects(moved, plan.effects, via);
    for (let attempt = 0; attempt < 3; attempt++) {
      const s = await store.get(id);
      if (!s) throw ActorError.notFound('approval', approvalIdOf(id));
      const e = env();
      const out = decide(s, cmd, e);
      if (out.refusal)
        throw new ActorError(out.refusal.code, out.refusal.message, {
          approval_id: approvalIdOf(id),
          status: s.status,
        });
      if (!out.patch) return s;
      const next = await store.transition(id, out.patch, e.now);
      if (next) return effects(next, out.effects, via);
    }
    throw new ActorError('CONFLICT', `approval ${approvalIdOf(id)} changed while it was being decided`, {
      approval_id: approvalIdOf(id),
    });
  }

  function effects(s: HoldState, fxs: HoldEffect[], via: Via): HoldState {
    for (const fx of fxs) {
      if (fx.type === 'settle') settle(s, via);
      if (fx.type === 'shown_on_dashboard') noteShown(s);
    }
    return s;
  }

  /** Same as apply, for moves that may legitimately lose a race (the hold already ended): undefined then. */
  const tryApply = (id: string, cmd: HoldCommand, via: Via) =>
    apply(id, cmd, via).catch((err: unknown) => {
      if (err instanceof ActorError && (err.type === 'CONFLICT' || err.type === 'NOT_FOUND')) return undefined;
      throw err;
    });

  function settle(s: HoldState, via: Via): void {
    if (!waiters.settle(s)) void via.broadcast(HOLD_SETTLED_EVENT, { id: s.id });
  }

  /** A hold in the dashboard queue that no person can see: the approvals queue is not on the bus (README "Holds"). */
  function noteShown(s: HoldState): void {
    const reachable = broker.registry.getActionEndpoints(ApprovalsActions.list.action)?.hasAvailable() ?? false;
    if (reachable) return;
    unreachable.inc();
    infra.log.warn({ approval_id: approvalIdOf(s.id), tool: s.tool_id, kind: s.kind }, 'approval_hold_unreachable');
  }

  async function reportProgress(via: Via, s: HoldState): Promise<boolean> {
    const e = env();
    const due = progressDue(s, e);
    const w = waiters.get(s.id);
    if (!due || !w || !(await store.claimProgress(s.id, s.next_progress_at!, due.next_progress_at))) return false;
    await sendProgress(via, w, s, due.fraction, due.total, e);
    return true;
  }

  /** Asks the client; an answer decides the hold, an undeliverable question falls back to the dashboard queue. */
  async function ask(via: Via, w: Waiter, s: HoldState, who: ElicitationIdentity): Promise<void> {
    const approval_id = approvalIdOf(s.id);
    try {
      const r = await putQuestion(via, w, s, env());
      if (w.ended) return void infra.log.info({ approval_id }, 'elicitation answer ignored: the hold already ended');
      if (!r.delivered) {
        infra.log.info({ approval_id, reason: r.reason }, 'hold question not put in the client: dashboard queue');
        await tryApply(s.id, { type: 'fallback', reason: r.reason }, via);
        return;
      }
      const ended = await tryApply(s.id, answerToCommand(r.result, who), via);
      if (!ended) infra.log.info({ approval_id }, 'elicitation answer ignored: the hold already ended');
    } catch (err) {
      if (w.ended) return;
      infra.log.info(
        { approval_id, err: (err as Error).message },
        'hold question failed in the client: dashboard queue',
      );
      await tryApply(
        s.id,
        { type: 'fallback', reason: `the client could not answer: ${(err as Error).message}` },
        via,
      ).catch(() => undefined);
    }
  }

  /** The reaper: ends holds whose window passed, sends due progress, wakes calls whose record ended elsewhere. */
  async function tick(via: Via): Promise<{ expired: number; progressed: number; settled: number }> {
    const e = env();
    let expired = 0;
    let progressed = 0;
    let settled = 0;
    for (const s of await store.dueDeadlines(e.now)) if (await tryApply(s.id, { type: 'expire' }, via)) expired++;
    for (const s of await store.dueProgress(nodeID, e.now)) if (await reportProgress(via, s)) progressed++;
    for (const s of await store.ended(waiters.ids())) if (waiters.settle(s)) settled++;
    return { expired, progressed, settled };
  }
  const queueTick = (via: Via) => {
    const run = chain.then(() => tick(via));
    chain = run.catch(() => undefined);
    return run;
  };

  /**
   * Orphans held calls whose holds node or client gateway is gone as the incarnation that recorded them (decision 0141):
   * at start, those whose holds node is not alive as that incarnation (`alive`); on the bus's word, those placed on
   * `node.id` by any incarnation other than `node.instance` (a node that left: null; one back as a new incarnation:
   * its new instance id).
   */
  async function orphan(via: Via, which: { alive: AliveNode[] } | { node: AliveNode }): Promise<number> {
    const found =
      'alive' in which ? await store.orphans(which.alive) : await store.orphansOf(which.node.id, which.node.instance);
    let n = 0;
    for (const s of found)
      if (await tryApply(s.id, { type: 'orphan', node: 'node' in which ? which.node.id : s.node }, via)) n++;
    if (n)
      infra.log.warn(
        { count: n, ...('node' in which ? { node: which.node.id } : {}) },
        'held calls orphaned by a restart',
      );
    return n;
  }

  /** The incarnations on the bus now, this node's own included. */
  const aliveNodes = (): AliveNode[] =>
    (
      broker.registry.getNodeList({ onlyAvailable: true, withServices: false }) as { id: string; instanceID?: string }[]
    ).map((n) => ({ id: n.id, instance: n.id === broker.nodeID ? broker.instanceID : (n.instanceID ?? null) }));

  /** The instance id of `node` as the bus knows it now (null when unknown). */
  const instanceOf = (node: string | undefined): string | null => {
    if (!node) return null;
    if (node === broker.nodeID) return broker.instanceID;
    const n = broker.registry.getNodeList({ onlyAvailable: true, withServices: false }) as {
      id: string;
      instanceID?: string;
    }[];
    return n.find((x) => x.id === node)?.instanceID ?? null;
  };

  function cancelCall(payload: unknown, via: Via, fallbackReason: string): void {
    const msg = ToolcallCancelSchema.safeParse(payload);
    const w = msg.success ? waiters.forCall(msg.data.call_id) : undefined;
    if (!w) return;
    const reason = msg.data!.reason ? `${fallbackReason}: ${msg.data!.reason}` : fallbackReason;
    void tryApply(w.id, { type: 'cancel', reason }, via).catch((err: unknown) =>
      infra.log.warn({ err }, 'hold cancel failed'),
    );
  }

  return {
    name: 'holds',

    actions: {
      request: action(H.request, async (p, ctx) => {
        const s = newHeldCall(p, crypto.randomUUID(), nodeID, env(), {
          node_instance: broker.instanceID,
          client_instance: instanceOf(p.progress_node),
        });
        await store.insert(s);
        const w = waiters.add(s, p.progress_node);
        const approval_id = approvalIdOf(s.id);
        infra.log.info(
          {
            approval_id,
            tool: p.tool_id,
            route: s.route,
            window_seconds: s.window_seconds,
            caller: s.requested_by,
            session: s.session_id,
            progress: p.has_progress,
          },
          'mcp_tool_call_held_for_approval',
        );
        if (p.has_progress) await reportProgress(ctx, s);
        const who = p.caller.decision_elicitation;
        if (s.route === 'elicitation' && who) void ask(ctx, w, s, who);
        else noteShown(s);
        const end = await w.done;
        const withdrawn = await withdrawQuestion(ctx, w, end);
        if (withdrawn)
          infra.log.info(
            { approval_id, request_id: withdrawn.requestId, delivered: withdrawn.delivered, reason: withdrawn.reason },
            'elicitation withdrawn',
          );
        return outcomeOf(end, env());
      }),

      file: action(H.file, async (p) => {
        const s = newFiled(p, crypto.randomUUID(), env());
        await store.insert(s);
        infra.log.info(
          { approval_id: approvalIdOf(s.id), kind: s.kind, tool: s.tool_id, project_id: s.project_id },
          'approval request filed',
        );
        noteShown(s);
        return toRecord(s);
      }),

      get: action(H.get, async ({ id }) => {
        const s = await store.get(ledgerIdOf(id));
        if (!s) throw ActorError.notFound('approval', approvalIdOf(ledgerIdOf(id)));
        return toRecord(s);
      }),

      list: action(H.list, async (q) => ({ records: (await store.list(q.status, q.project_id)).map(toRecord) })),

      decide: action(H.decide, async (p, ctx) =>
        toRecord(
          await apply(
            ledgerIdOf(p.id),
            { type: 'decide', decision: p.decision, reason: p.reason, decider: p.decider, outcome: p.outcome },
            ctx,
          ),
        ),
      ),

      tick: action(HoldsInternal.tick, (_p, ctx) => queueTick(ctx)),

      ...ledgerQueueActions(infra),
    },

    events: {
      [TOOLCALL_CANCEL_EVENT](ctx: Context) {
        cancelCall(ctx.params, ctx, 'the client cancelled the call');
      },
      [TOOLCALL_CLOSED_EVENT](ctx: Context) {
        cancelCall(ctx.params, ctx, "the call's stream closed");
      },
      async [HOLD_SETTLED_EVENT](ctx: Context) {
        const msg = HoldSettledSchema.safeParse(ctx.params);
        if (!msg.success || !waiters.get(msg.data.id)) return;
        const s = await store.get(msg.data.id);
        if (s) waiters.settle(s);
      },
      // A node that left takes its held calls with it: those it waited on and those whose caller's stream it held.
      async '$node.disconnected'(ctx: Context<{ node?: { id?: string } }>) {
        const gone = ctx.params.node?.id;
        if (gone)
          await orphan(ctx, { node: { id: gone, instance: null } }).catch((err: unknown) =>
            infra.log.warn({ err }, "orphaning a lost node's holds failed"),
          );
      },
      // A node back under the same id is a new incarnation: the calls of the one before are gone.
      async '$node.connected'(ctx: Context<{ node?: { id?: string; instanceID?: string }; reconnected?: boolean }>) {
        const n = ctx.params.node;
        if (n?.id && n.instanceID)
          await orphan(ctx, { node: { id: n.id, instance: n.instanceID } }).catch((err: unknown) =>
            infra.log.warn({ err }, "orphaning a restarted node's earlier holds failed"),
          );
      },
    },

    async started() {
      broker = this.broker;
      nodeID = broker.nodeID;
      store = createHoldStore(await infra.db());
      await orphan(broker, { alive: aliveNodes() });
      timer = setInterval(
        () => void queueTick(broker).catch((err: unknown) => infra.log.warn({ err }, 'holds reaper tick failed')),
        TICK_MS,
      );
      timer.unref();
    },

    async stopped() {
      clearInterval(timer);
      // The records stay awaiting_approval: the next start orphans them (SPEC "Tool-approval ledger records").
      waiters.releaseAll((s) => ({ ...s, status: 'canceled', error: 'the service stopped while the call was held' }));
    },
  };
}
