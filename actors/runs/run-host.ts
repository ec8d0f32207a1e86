import { ActorError } from '../../brokers/errors.ts';
import type { Logger } from '../../brokers/logger.ts';
import { decide, type Decided, type RunCommand, type RunEffect } from './run.machine.ts';
import { apply, foldRun } from './run.events.ts';
import { FencedError, type RunStore } from './run.store.ts';
import type { RunLimits, RunState } from './run.types.ts';

/** One run held by this node: its state, the epoch it owns it under, and its mailbox (one command at a time). */
interface Held {
  state: RunState;
  epoch: number;
  chain: Promise<unknown>;
  lastUsed: number;
}

export interface HostDeps {
  store: RunStore;
  log: Logger;
  now(): Date;
  limits: RunLimits;
  /** Runs one effect after its events are stored. `commitDrafts` is handled by `decideWithCommit` instead. */
  runEffect(runId: string, fx: RunEffect, state: RunState): void;
}

/** Thrown when this node may not act for a run right now (another owner holds a valid lease): the caller retries. */
export const notOwner = (runId: string, why: string) => new ActorError('SERVICE_UNAVAILABLE', `run ${runId} is not held by this node: ${why}`, { run_id: runId, retry: true });

/**
 * The per-run actors of one node (ARCHITECTURE "An actor per entity"): a command loads the run (claiming it with a new
 * epoch when its lease is free or expired), asks the pure machine, appends the events fenced by the epoch, then runs
 * the effects. A fenced append drops the run from this node. Postgres is the authority; placement is only a cache.
 */
export class RunHost {
  private readonly held = new Map<string, Held>();
  private readonly loading = new Map<string, Promise<Held>>();
  private readonly deps: HostDeps;

  constructor(deps: HostDeps) {
    this.deps = deps;
  }

  heldIds(): string[] {
    return [...this.held.keys()];
  }

  drop(runId: string): void {
    this.held.delete(runId);
  }

  /** Serialises work on one run through its mailbox. */
  private async withRun<T>(runId: string, fn: (h: Held) => Promise<T>, opts: { create?: Held } = {}): Promise<T> {
    let h = this.held.get(runId) ?? opts.create;
    if (!h) {
      let pending = this.loading.get(runId);
      if (!pending) {
        pending = this.load(runId).finally(() => this.loading.delete(runId));
        this.loading.set(runId, pending);
      }
      h = this.held.get(runId) ?? (await pending);
    }
    this.held.set(runId, h);
    const held = h;
    const result = held.chain.then(() => fn(held));
    held.chain = result.catch(() => undefined);
    held.lastUsed = Date.now();
    return result;
  }

  /** Claims and folds a run; resumes its unfinished work (phases that were running, a gate to evaluate). */
  private async load(runId: string): Promise<Held> {
    const row = await this.deps.store.get(runId);
    if (!row) throw ActorError.notFound('run', runId);
    const epoch = await this.deps.store.claim(runId, this.deps.now());
    if (epoch === undefined) throw notOwner(runId, `owned by ${row.owner} until ${row.lease_until?.toISOString()}`);
    const state = foldRun(await this.deps.store.events(runId));
    const h: Held = { state, epoch, chain: Promise.resolve(), lastUsed: Date.now() };
    queueMicrotask(() => this.resume(runId, h));
    return h;
  }

  private resume(runId: string, h: Held): void {
    const s = h.state;
    if (['completed', 'failed', 'rejected', 'cancelled'].includes(s.status)) return;
    for (const [phase, ps] of Object.entries(s.phases)) {
      if (ps.status === 'running') this.deps.runEffect(runId, { type: 'runPhase', phase, attempt: ps.attempt, notes: ps.notes }, s);
    }
    if (!s.gate && s.gate_queue.length) this.deps.runEffect(runId, { type: 'evaluateGate', phase: s.gate_queue[0], attempt: s.phases[s.gate_queue[0]].attempt }, s);
  }

  /** Creates a run held by this node (its first events in the same mailbox). */
  async create(runId: string, epoch: number, cmd: Extract<RunCommand, { type: 'create' }>, initial: RunState): Promise<Decided & { state: RunState }> {
    return this.withRun(runId, (h) => this.applyCommand(runId, h, cmd), { create: { state: initial, epoch, chain: Promise.resolve(), lastUsed: Date.now() } });
  }

  /** Applies one command; effects run after the events are stored. */
  command(runId: string, cmd: RunCommand): Promise<Decided & { state: RunState }> {
    return this.withRun(runId, (h) => this.applyCommand(runId, h, cmd));
  }

  /** A gate decision; for approve, commits the run's drafts first and records the decision only if that worked. */
  decideWithCommit(
    runId: string,
    cmd: Extract<RunCommand, { type: 'decide' }>,
    commit: (fx: Extract<RunEffect, { type: 'commitDrafts' }>, s: RunState) => Promise<{ ok: boolean; message: string }>,
  ): Promise<Decided & { state: RunState }> {
    return this.withRun(runId, async (h) => {
      const first = await this.applyCommand(runId, h, cmd);
      const fx = first.effects.find((e) => e.type === 'commitDrafts');
      if (!fx || fx.type !== 'commitDrafts' || first.refusal) return first;
      const out = await commit(fx, h.state);
      return this.applyCommand(runId, h, { type: 'commitResult', gate_id: fx.gate_id, idem: fx.idem, identity: fx.identity, reason: fx.reason, ok: out.ok, message: out.message });
    });
  }

  private async applyCommand(runId: string, h: Held, cmd: RunCommand): Promise<Decided & { state: RunState }> {
    const now = this.deps.now();
    const d = decide(h.state, cmd, { now: now.toISOString(), limits: this.deps.limits });
    if (d.events.length) {
      const next = d.events.reduce(apply, h.state);
      try {
        await this.deps.store.append(runId, h.epoch, h.state.seq, d.events, next, now, cmd.type === 'decide' || cmd.type === 'commitResult' ? cmd.idem : undefined);
      } catch (err) {
        if (err instanceof FencedError) {
          this.held.delete(runId);
          this.deps.log.warn({ run: runId, err: err.message }, 'run fenced: another node owns it now');
          throw notOwner(runId, err.message);
        }
        throw err;
      }
      h.state = next;
    }
    for (const fx of d.effects) if (fx.type !== 'commitDrafts') this.deps.runEffect(runId, fx, h.state);
    return { ...d, state: h.state };
  }

  /** Makes sure this node holds the run (claiming an orphan and resuming its work). */
  touch(runId: string): Promise<void> {
    return this.withRun(runId, async () => undefined);
  }

  /** Reads the state of a held run without a command (the mailbox keeps it consistent). */
  peek(runId: string): RunState | undefined {
    return this.held.get(runId)?.state;
  }

  /** Renews the leases of held runs; runs whose lease another node took are dropped. */
  async renew(): Promise<void> {
    const ids = this.heldIds();
    if (!ids.length) return;
    const kept = new Set(await this.deps.store.renew(ids, this.deps.now()));
    for (const id of ids) if (!kept.has(id)) this.held.delete(id);
  }

  /** Releases runs idle for `idleMs` that wait on a person (placement drifts back to the shard owner). */
  releaseIdle(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const [id, h] of this.held) if (h.lastUsed < cutoff && h.state.status === 'awaiting_approval') this.held.delete(id);
  }
}
