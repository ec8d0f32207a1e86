import { ActorError } from '../../brokers/errors.ts';
import type { Logger } from '../../brokers/logger.ts';
import { decide, resumeEffects, type Decided, type RunCommand, type RunEffect } from './run.machine.ts';
import { closeScopeOf } from './draft-scope.ts';
import { endedCloseEffects } from './run.resume.ts';
import { apply, foldRun } from './run.events.ts';
import { FencedError, type RunStore } from './run.store.ts';
import type { RunLimits, RunState } from './run.types.ts';

/** Statuses a run never leaves. */
const ENDED: readonly string[] = ['completed', 'failed', 'rejected', 'cancelled'];
/** One run held by this node: its state, the epoch it owns it under, and its mailbox (one command at a time). */
interface Held {
  state: RunState;
  epoch: number;
  chain: Promise<unknown>;
  lastUsed: number;
  /** Aborted when this node stops holding the run: its phase executions must stop writing. */
  abort: AbortController;
}

/** The ownership an effect was started under: a phase execution checks it before each tool call. */
export interface RunLease {
  epoch: number;
  signal: AbortSignal;
}

export interface HostDeps {
  store: RunStore;
  log: Logger;
  now(): Date;
  limits: RunLimits;
  /**
   * Runs one effect after its events are stored (`commitDrafts` is `decideWithCommit`'s). A promise while it runs: the
   * host counts it as work in flight (and starts phases only once a `closeDrafts` settled).
   */
  runEffect(runId: string, fx: RunEffect, state: RunState, lease: RunLease): Promise<unknown> | void;
  /** Test seam: throws at a step to prove what a failure there leaves (`after_commit`: drafts committed, event not stored). */
  faults?: (step: 'after_commit') => void;
  /** Test seam (decision 0142): waits between the ownership check and the commit, as a paused owner would. */
  pause?: (step: 'before_commit', runId: string) => Promise<void> | void;
}

/** Whether an error (also one rebuilt from the bus) is the twin's refusal of a write from a former owner. */
export const isFenced = (err: unknown) =>
  err instanceof ActorError &&
  err.type === 'CONFLICT' &&
  (err.data as { fenced?: unknown } | undefined)?.fenced === true;

/** Thrown when this node may not act for a run right now (another owner holds a valid lease): the caller retries. */
export const notOwner = (runId: string, why: string) =>
  new ActorError('SERVICE_UNAVAILABLE', `run ${runId} is not held by this node: ${why}`, {
    run_id: runId,
    retry: true,
  });

/** Whether an error (also one rebuilt from the bus) is `notOwner`'s: the command is sent again, to the run's owner. */
export const isNotOwner = (err: unknown) =>
  err instanceof ActorError && err.type === 'SERVICE_UNAVAILABLE' && /is not held by this node/.test(err.message);

/**
 * The per-run actors of one node (ARCHITECTURE "An actor per entity"): a command loads the run (claiming it with a new
 * epoch when its lease is free or expired), asks the pure machine, appends the events fenced by the epoch, then runs
 * the effects. A fenced append drops the run from this node. Postgres is the authority; placement is only a cache.
 */
export class RunHost {
  private readonly held = new Map<string, Held>();
  private readonly loading = new Map<string, Promise<Held>>();
  private readonly deps: HostDeps;
  /** Every command and effect in flight here, also those of runs dropped since: what a stall leaves to finish. */
  private readonly inflight = new Set<Promise<void>>();
  private lastRenew: number;

  constructor(deps: HostDeps) {
    this.deps = deps;
    this.lastRenew = deps.now().getTime();
  }

  /** Counts `p` as work in flight until it settles. */
  private track(p: Promise<unknown> | void): void {
    if (!p) return;
    const settled = p.then(
      () => undefined,
      () => undefined,
    );
    this.inflight.add(settled);
    void settled.then(() => this.inflight.delete(settled));
  }

  heldIds(): string[] {
    return [...this.held.keys()];
  }

  /** Forgets the run (only the copy held under `epoch`, when given) and stops its phase executions (`why` their reason). */
  drop(runId: string, epoch?: number, why?: string): void {
    const h = this.held.get(runId);
    if (!h || (epoch !== undefined && h.epoch !== epoch)) return;
    this.held.delete(runId);
    h.abort.abort(why === undefined ? undefined : new Error(why));
  }

  /** Whether this node still holds the run under `epoch` (in memory; the store's epoch is the authority). */
  holds(runId: string, epoch: number): boolean {
    return this.held.get(runId)?.epoch === epoch;
  }

  /** Serialises work on one run through its mailbox. */
  private withRun<T>(runId: string, fn: (h: Held) => Promise<T>, opts: { create?: Held } = {}): Promise<T> {
    const p = this.enter(runId, fn, opts);
    this.track(p);
    return p;
  }

  private async enter<T>(runId: string, fn: (h: Held) => Promise<T>, opts: { create?: Held }): Promise<T> {
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
    const claimed = await this.deps.store.claimWithLog(runId, this.deps.now());
    if (claimed === undefined) {
      // Not claimed: the run does not exist, or another node holds a valid lease on it.
      const row = await this.deps.store.get(runId);
      if (!row) throw ActorError.notFound('run', runId);
      throw notOwner(runId, `owned by ${row.owner} until ${row.lease_until?.toISOString()}`);
    }
    const state = foldRun(claimed.events);
    const h: Held = {
      state,
      epoch: claimed.epoch,
      chain: Promise.resolve(),
      lastUsed: Date.now(),
      abort: new AbortController(),
    };
    queueMicrotask(() => this.runEffects(runId, h, [...endedCloseEffects(state), ...resumeEffects(state)]));
    return h;
  }

  /**
   * Starts a command's effects in order; phases start only once the drafts a retry or rework closes are closed, so a
   * new attempt's first drafts are never closed with the old ones.
   */
  private runEffects(runId: string, h: Held, effects: RunEffect[]): void {
    const lease: RunLease = { epoch: h.epoch, signal: h.abort.signal };
    let closing: Promise<unknown> = Promise.resolve();
    for (const fx of effects) {
      if (fx.type === 'commitDrafts') continue;
      if (fx.type === 'runPhase') this.track(closing.then(() => this.deps.runEffect(runId, fx, h.state, lease)));
      else if (fx.type === 'closeDrafts') {
        closing = Promise.resolve(this.deps.runEffect(runId, fx, h.state, lease)).catch(() => undefined);
        this.track(closing);
      } else this.track(this.deps.runEffect(runId, fx, h.state, lease));
    }
  }

  /** Creates a run held by this node (its first events in the same mailbox). */
  async create(
    runId: string,
    epoch: number,
    cmd: Extract<RunCommand, { type: 'create' }>,
    initial: RunState,
  ): Promise<Decided & { state: RunState }> {
    return this.withRun(runId, (h) => this.applyCommand(runId, h, cmd), {
      create: { state: initial, epoch, chain: Promise.resolve(), lastUsed: Date.now(), abort: new AbortController() },
    });
  }

  /** Applies one command; effects run after the events are stored. */
  command(runId: string, cmd: RunCommand): Promise<Decided & { state: RunState }> {
    return this.withRun(runId, (h) => this.applyCommand(runId, h, cmd));
  }

  /** A gate decision; for approve, commits the run's drafts first and records the decision only if that worked. */
  decideWithCommit(
    runId: string,
    cmd: Extract<RunCommand, { type: 'decide' }>,
    commit: (
      fx: Extract<RunEffect, { type: 'commitDrafts' }>,
      s: RunState,
      epoch: number,
    ) => Promise<{ ok: boolean; message: string }>,
  ): Promise<Decided & { state: RunState }> {
    return this.withRun(runId, async (h) => {
      const first = await this.applyCommand(runId, h, cmd);
      const fx = first.effects.find((e) => e.type === 'commitDrafts');
      if (!fx || fx.type !== 'commitDrafts' || first.refusal) return first;
      // A node that lost the run (stalled past its lease) must not commit the drafts of a gate the new owner now decides.
      if (!(await this.deps.store.owns(runId, h.epoch))) {
        this.drop(runId, h.epoch);
        throw notOwner(runId, `epoch ${h.epoch} was taken over before the commit`);
      }
      await this.deps.pause?.('before_commit', runId);
      const out = await commit(fx, h.state, h.epoch).catch((err: unknown) => {
        // Refused inside the commit's transaction: another node took the run over since the check above.
        if (isFenced(err)) {
          this.drop(runId, h.epoch);
          throw notOwner(runId, `epoch ${h.epoch} was taken over during the commit; nothing was committed`);
        }
        // The commit is idempotent per (run, gate): a caller retrying with the same key finishes it.
        throw err instanceof ActorError
          ? err
          : new ActorError(
              'SERVICE_UNAVAILABLE',
              `committing the drafts of ${fx.gate_id} failed, nothing was decided; retry with the same key: ${(err as Error).message}`,
              { run_id: runId, retry: true },
            );
      });
      const result: RunCommand = {
        type: 'commitResult',
        gate_id: fx.gate_id,
        idem: fx.idem,
        identity: fx.identity,
        reason: fx.reason,
        ...(fx.override_reason ? { override_reason: fx.override_reason } : {}),
        ok: out.ok,
        message: out.message,
      };
      if (!out.ok) return this.applyCommand(runId, h, result);
      try {
        this.deps.faults?.('after_commit');
        return await this.applyCommand(runId, h, result);
      } catch (err) {
        if (isNotOwner(err)) throw err; // the new owner finishes it when the decision is sent again with the same key
        // The drafts are committed and the gate is still open: the caller must send this decision again (same key).
        throw new ActorError(
          'SERVICE_UNAVAILABLE',
          `the drafts of ${fx.gate_id} are committed but the approval could not be stored yet (${(err as Error).message}); sending it again with the same key finishes it`,
          {
            run_id: runId,
            retry: true,
            committed: true,
          },
        );
      }
    });
  }

  private async applyCommand(runId: string, h: Held, cmd: RunCommand): Promise<Decided & { state: RunState }> {
    const now = this.deps.now();
    const d = decide(h.state, cmd, { now: now.toISOString(), limits: this.deps.limits });
    // A refusal is stored nowhere, so no epoch check fences it: make sure it was not read off a copy taken over meanwhile.
    // An ended run never changes again, so its refusal stands whoever holds it now (a decision queued behind the one
    // that ended it must not turn into "not the owner" because a later decision loaded the run again).
    if (
      d.refusal &&
      !d.events.length &&
      !ENDED.includes(h.state.status) &&
      !(await this.deps.store.owns(runId, h.epoch))
    ) {
      this.drop(runId, h.epoch);
      throw notOwner(runId, `epoch ${h.epoch} was taken over; this copy's answer would be stale`);
    }
    const prev = h.state;
    if (d.events.length) {
      const next = d.events.reduce(apply, h.state);
      try {
        await this.deps.store.append(
          runId,
          h.epoch,
          h.state.seq,
          d.events,
          next,
          now,
          cmd.type === 'decide' || cmd.type === 'commitResult' ? cmd.idem : undefined,
        );
      } catch (err) {
        if (err instanceof FencedError) {
          this.drop(runId, h.epoch);
          this.deps.log.warn({ run: runId, err: err.message }, 'run fenced: another node owns it now');
          throw notOwner(runId, err.message);
        }
        throw err;
      }
      h.state = next;
    }
    this.runEffects(
      runId,
      h,
      d.effects.map((fx) => {
        if (fx.type !== 'closeDrafts' || fx.drafts) return fx;
        const drafts = closeScopeOf(prev, d.events);
        return drafts ? { ...fx, drafts } : fx;
      }),
    );
    // An ended run needs nothing more from this node: no lease to renew, no memory to keep (reads use the projection).
    if (ENDED.includes(h.state.status))
      this.drop(runId, h.epoch, `run ${h.state.status}: ${h.state.ended?.message ?? h.state.status}`);
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

  /**
   * Renews the leases of held runs; runs whose lease another node took are dropped. Called every `stallMs / 3` or so: a
   * call more than `stallMs` after the previous one means this node stood still (a stopped process, a blocked event
   * loop) long enough to lose runs while it held copies of them. That is logged; once the leases are renewed (the lost
   * runs dropped) and every command and effect in flight by then has ended, its writes landed or fenced, it is logged
   * again: no copy from before the stall acts any more.
   */
  async renew(stallMs = Infinity): Promise<void> {
    const at = this.deps.now().getTime();
    const stalledMs = at - this.lastRenew;
    this.lastRenew = Math.max(this.lastRenew, at);
    const stalled = stalledMs > stallMs;
    if (stalled) this.deps.log.warn({ stalled_ms: stalledMs, held: this.held.size }, 'run host stalled past its lease');
    const ids = this.heldIds();
    let lost: string[] = [];
    try {
      if (!ids.length) return;
      const kept = new Set(await this.deps.store.renew(ids, this.deps.now()));
      lost = ids.filter((id) => !kept.has(id));
      for (const id of lost) this.drop(id);
    } finally {
      if (stalled) {
        const before = [...this.inflight];
        await Promise.all(before);
        this.deps.log.warn(
          {
            stalled_ms: stalledMs,
            noticed_at: new Date(at).toISOString(),
            lost: lost.length,
            kept: ids.length - lost.length,
            ended: before.length,
          },
          'run host work from before the stall ended',
        );
      }
    }
  }

  /** Releases runs idle for `idleMs` that wait on a person (placement drifts back to the shard owner). */
  releaseIdle(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const [id, h] of this.held)
      if (h.lastUsed < cutoff && h.state.status === 'awaiting_approval') this.drop(id, h.epoch);
  }
}
