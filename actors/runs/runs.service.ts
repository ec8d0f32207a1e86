import crypto from 'node:crypto';
import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import { action, call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { GatesActions, RunsActions as R } from '../../contracts/actions/runs.actions.ts';
import { TOOLCALL_CANCEL_EVENT } from '../../contracts/actions/adapters.actions.ts';
import { ToolsActions } from '../../contracts/actions/tools.actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import { TwinScopeActions } from '../../contracts/actions/twin-scope.actions.ts';
import { approvalReadActions } from './approval-reads.ts';
import { designFlowActions } from './design-flow.actions.ts';
import { serviceCaller, type PhaseExecutor } from './executor.ts';
import { executorFor, type HandlerTable } from './executors.ts';
import { DEFAULT_HANDLERS } from './handlers/index.ts';
import { freezeFlow, FLOWS } from './flows/index.ts';
import { emptyRun } from './run.events.ts';
import { PATCH_FINDINGS_ORDER, type RunEffect, type Refusal } from './run.machine.ts';
import { isNotOwner, notOwner, RunHost, type HostDeps, type RunLease } from './run-host.ts';
import { createRunStore, type RunStore } from './run.store.ts';
import { DEFAULT_LIMITS, type RunLimits, type RunState } from './run.types.ts';
import { runView, startedOf } from './run.view.ts';
import { gateEvaluateParams } from './gate-evaluate.ts';
import { closeRunDrafts, commitGateDrafts } from './draft-writes.ts';

export interface RunsOptions {
  /** Deterministic phase handlers; phases without one run through the phase brain when routed (executors.ts). */
  handlers?: HandlerTable;
  /** Replaces handler selection entirely (tests, benchmarks). */
  executor?: PhaseExecutor;
  limits?: Partial<RunLimits>;
  leaseMs?: number;
  /** Patch markers recorded on runs created now (default ACTIVE_PATCHES); replay recordings of an older release pin theirs. */
  patches?: string[];
  /** Test seam of the run host (HostDeps.faults). */
  faults?: HostDeps['faults'];
  /**
   * Test seam (decision 0142): waits between the ownership check and the twin write it guards (`before_commit`,
   * `before_close`), as a paused owner would. A factory option of tests only, never reachable from a request.
   */
  pause?: (step: 'before_commit' | 'before_close', runId: string) => Promise<void> | void;
}

/** Patch markers active for runs created now (STYLE R6): a behaviour change for runs in flight gets a new one. */
export const ACTIVE_PATCHES = [PATCH_FINDINGS_ORDER];

/** Deadline of one gate evaluation: the deterministic checks, plus the gate_check model's call when it is routed. */
const GATE_EVALUATE_MS = 150_000;

const refusalError = (r: Refusal) => new ActorError(r.code, r.message);

/**
 * The `runs` actor: one actor per design-flow run, event-sourced in Postgres, ownership fenced by epoch (lease rows).
 * Commands reaching a node that does not hold a run are forwarded to its live owner, or the run is claimed once the
 * owner's lease expired. Effects: phases run through the executor, gates are evaluated by the `gates` actor, drafts are
 * committed or closed by the `twin` actor.
 */
export function createRunsService(infra: Infra, opts: RunsOptions = {}): ServiceSchema {
  const limits: RunLimits = {
    ...DEFAULT_LIMITS,
    stallStop: Math.max(2, infra.config.SERVICE_DESIGN_FLOW_STALL_STOP),
    ...opts.limits,
  };
  const leaseMs = opts.leaseMs ?? infra.config.SERVICE_RUN_LEASE_MS;
  const handlers = opts.handlers ?? DEFAULT_HANDLERS;
  const executor = opts.executor ?? executorFor(handlers, { brain: infra.config.SERVICE_PHASE_BRAIN });
  const requests = new Map<string, Record<string, unknown>>();
  let store: RunStore;
  let host: RunHost;
  let timers: NodeJS.Timeout[] = [];

  return {
    name: 'runs',

    actions: {
      start: action(R.start, async (p, ctx) => {
        const def = FLOWS[p.design_flow];
        const flow = freezeFlow(def, p.facts);
        const runId = `run_${crypto.randomUUID()}`;
        // The other runs' items it may revise are validated and recorded before anything starts (decision 0100).
        if (p.revise.length)
          await call(ctx, TwinScopeActions.declareRevisions, {
            run_id: runId,
            project_id: p.project_id ?? null,
            keys: p.revise,
          });
        await store.saveVersion(flow);
        const request = {
          goal: p.goal,
          context: p.context,
          ...(p.revise.length ? { revise: p.revise } : {}),
          ...startedOf(p),
        };
        const epoch = await store.create(
          {
            id: runId,
            project_id: p.project_id ?? null,
            design_flow: p.design_flow,
            version_id: flow.version_id,
            request,
            state: emptyRun(),
          },
          infra.now(),
        );
        requests.set(runId, request);
        const out = await host.create(
          runId,
          epoch,
          {
            type: 'create',
            run_id: runId,
            project_id: p.project_id ?? null,
            flow,
            patches: opts.patches ?? ACTIVE_PATCHES,
          },
          emptyRun(),
        );
        return runView(out.state, request, limits);
      }),

      get: action(R.get, async (p) => {
        const held = host.peek(p.run_id);
        if (held) return runView(held, await requestOf(p.run_id), limits);
        const row = await store.get(p.run_id);
        if (!row) throw ActorError.notFound('run', p.run_id);
        return runView(row.state, row.request, limits);
      }),

      list: action(R.list, async (p) => {
        const db = await infra.db();
        const { rows } = await db.query<{ state: RunState; request: Record<string, unknown> }>(
          'SELECT state, request FROM runs WHERE ($1::text IS NULL OR project_id = $1) ORDER BY created_at DESC LIMIT $2',
          [p.project_id ?? null, p.limit],
        );
        const total = await db.query<{ n: string }>(
          'SELECT count(*) AS n FROM runs WHERE ($1::text IS NULL OR project_id = $1)',
          [p.project_id ?? null],
        );
        const unscoped =
          p.project_id === undefined
            ? undefined
            : await db.query<{ n: string }>('SELECT count(*) AS n FROM runs WHERE project_id IS NULL');
        return {
          runs: rows.map((r) => runView(host.peek(r.state.id) ?? r.state, r.request, limits)),
          total: Number(total.rows[0].n),
          unscoped_count: Number(unscoped?.rows[0].n ?? 0),
        };
      }),

      decide: action(R.decide, async (p, ctx) => {
        const fwd = await forward(ctx, R.decide.action, p.run_id);
        if (fwd) return fwd;
        const out = await host.decideWithCommit(
          p.run_id,
          {
            type: 'decide',
            decision: p.decision,
            reason: p.reason,
            to_phase: p.to_phase,
            identity: p.identity,
            idem: p.idem,
            gate_id: p.gate_id,
            ...(p.override_reason !== undefined ? { override_reason: p.override_reason } : {}),
          },
          (fx, s, epoch) => commitGateDrafts(ctx, p.run_id, fx, s, epoch),
        );
        if (out.refusal) throw refusalError(out.refusal);
        return runView(out.state, await requestOf(p.run_id), limits);
      }),

      cancel: action(R.cancel, async (p, ctx) => {
        const fwd = await forward(ctx, R.cancel.action, p.run_id);
        if (fwd) return fwd;
        const out = await host.command(p.run_id, { type: 'cancel', reason: p.reason });
        if (out.refusal) throw refusalError(out.refusal);
        return runView(out.state, await requestOf(p.run_id), limits);
      }),

      events: action(R.events, async (p) => {
        if (!(await store.get(p.run_id))) throw ActorError.notFound('run', p.run_id);
        return { events: (await store.events(p.run_id)) as unknown as Record<string, unknown>[] };
      }),

      ...approvalReadActions(infra, limits),

      ...designFlowActions({
        infra,
        limits,
        handlers,
        activePatches: ACTIVE_PATCHES,
        host: () => host,
        store: () => store,
        forward,
      }),
    },

    methods: {},

    async started() {
      const broker = this.broker;
      store = createRunStore(await infra.db(), broker.nodeID, leaseMs);
      host = new RunHost({
        store,
        log: infra.log,
        now: infra.now,
        limits,
        faults: opts.faults,
        pause: opts.pause,
        runEffect: (id, fx, s, lease) => runEffect(broker, id, fx, s, lease),
      });
      timers = [
        setInterval(
          () => void host.renew(leaseMs).catch((err: unknown) => infra.log.warn({ err }, 'run lease renewal failed')),
          Math.max(200, leaseMs / 3),
        ),
        setInterval(() => void reapOrphans(), leaseMs),
      ];
      for (const t of timers) t.unref();
    },

    async stopped() {
      for (const t of timers) clearInterval(t);
    },
  };

  async function requestOf(runId: string): Promise<Record<string, unknown>> {
    let r = requests.get(runId);
    if (!r) {
      r = (await store.get(runId))?.request ?? {};
      requests.set(runId, r);
    }
    return r;
  }

  /**
   * Sends the command to the node holding the run when it is alive and its lease is valid; undefined = handle here. The
   * run is taken first (one round trip when it is free, ours or its lease expired: the common case of a decision on a
   * parked run) and its row read only when another node holds it; the run's request is read side by side.
   */
  async function forward(ctx: Context, actionName: string, runId: string) {
    if (host.peek(runId) || (ctx.meta as { forwarded?: boolean }).forwarded) return undefined;
    void requestOf(runId).catch(() => undefined);
    const taken = await host.touch(runId).then(
      () => undefined,
      (err: unknown) => err,
    );
    if (taken === undefined) return undefined;
    if (!isNotOwner(taken)) throw taken;
    const row = await store.get(runId);
    if (!row) throw ActorError.notFound('run', runId);
    const me = ctx.broker.nodeID;
    const valid = row.owner && row.owner !== me && row.lease_until && row.lease_until > infra.now();
    const alive = valid && ctx.broker.registry.nodes.get(row.owner!)?.available;
    if (!alive) throw taken;
    return ctx.call(actionName, ctx.params, { nodeID: row.owner!, meta: { forwarded: true } }) as Promise<
      ReturnType<typeof runView>
    >;
  }

  async function reapOrphans() {
    try {
      for (const id of await store.orphaned(infra.now())) {
        if (host.peek(id)) continue;
        await host.touch(id).catch(() => undefined);
      }
    } catch (err) {
      infra.log.warn({ err }, 'orphan reaper failed');
    }
  }

  /**
   * Runs one effect under the lease it was started with. A phase execution whose lease is gone (the run was taken over
   * or dropped) makes no more tool calls and reports nothing: the owner of the newer epoch re-runs the phase. Answers
   * a promise that settles when the effect is over (a phase: its result reported or dropped), but broadcasts.
   */
  function runEffect(
    bus: ServiceBroker,
    runId: string,
    fx: RunEffect,
    s: RunState,
    lease: RunLease,
  ): Promise<unknown> | void {
    const fail = (err: unknown) => infra.log.error({ run: runId, effect: fx.type, err }, 'run effect failed');
    const fenced = async () => lease.signal.aborted || !(await store.owns(runId, lease.epoch));
    if (fx.type === 'runPhase') {
      const phase = s.flow.definition.phases.find((p) => p.id === fx.phase)!;
      return (async () => {
        const request = await requestOf(runId);
        const prior = Object.fromEntries(Object.entries(s.phases).map(([id, ps]) => [id, ps.deliverables]));
        const input = {
          run_id: runId,
          project_id: s.project_id,
          flow_id: s.flow.flow_id,
          phase,
          attempt: fx.attempt,
          notes: fx.notes,
          request,
          facts: s.flow.facts,
          prior,
          signal: new AbortController().signal,
        };
        const outcome = await executor({
          ...input,
          signal: lease.signal,
          bus,
          caller: serviceCaller(input, lease.epoch),
          callTool: async (name, args, timeout = 600) => {
            if (await fenced()) {
              host.drop(runId, lease.epoch);
              throw notOwner(runId, `the execution of ${fx.phase} under epoch ${lease.epoch} was fenced`);
            }
            const callId = `${runId}:${fx.phase}:${crypto.randomUUID()}`;
            // The run ended (cancelled) or left this node while the engine runs: the adapter running it aborts it.
            const stop = () =>
              void bus
                .broadcast(TOOLCALL_CANCEL_EVENT, { call_id: callId, reason: abortReason(lease.signal) })
                .catch(fail);
            lease.signal.addEventListener('abort', stop, { once: true });
            return call(
              bus,
              ToolsActions.call,
              {
                name,
                arguments: args,
                timeout_seconds: timeout,
                call_id: callId,
                caller: serviceCaller(input, lease.epoch),
              },
              { timeout: timeout * 1000 + 10_000 },
            ).finally(() => lease.signal.removeEventListener('abort', stop));
          },
        }).catch((err: unknown) => ({
          ok: false as const,
          kind: 'unknown' as const,
          message: `phase handler crashed: ${(err as Error).message}`,
        }));
        if (lease.signal.aborted)
          return infra.log.warn(
            { run: runId, phase: fx.phase, epoch: lease.epoch },
            'phase result of a fenced execution dropped',
          );
        await host.command(runId, { type: 'phaseResult', phase: fx.phase, attempt: fx.attempt, ...outcome });
      })().catch(fail);
    } else if (fx.type === 'evaluateGate') {
      return requestOf(runId)
        .then((request) =>
          call(bus, GatesActions.evaluate, gateEvaluateParams(runId, s, fx.phase, fx.attempt, request), {
            timeout: GATE_EVALUATE_MS,
          }),
        )
        .then((g) =>
          lease.signal.aborted
            ? undefined
            : host.command(runId, {
                type: 'gateEvaluated',
                phase: fx.phase,
                attempt: fx.attempt,
                findings: g.findings,
                ready: g.ready,
              }),
        )
        .catch(fail);
    } else if (fx.type === 'closeDrafts') {
      return closeRunDrafts(bus, runId, fx, lease.epoch, {
        owns: () => store.owns(runId, lease.epoch),
        pause: opts.pause,
        log: infra.log,
      }).catch(fail);
    } else if (fx.type === 'gateOpened' || fx.type === 'ended') {
      void bus.broadcast(`runs.${fx.type}`, { run_id: runId, ...fx });
    }
  }
}

/** Why a phase's lease was aborted, in words for the engine call it stops. */
const abortReason = (signal: AbortSignal) =>
  signal.reason instanceof Error ? signal.reason.message : 'the run ended or moved to another node';
