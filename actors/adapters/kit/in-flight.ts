import moleculer from 'moleculer';
import type { DrainReport } from '../../../brokers/drain.ts';

/**
 * Abort reason of a call still running when its node's drain deadline passed (issue 20). The kit answers it as
 * TOOL_UNAVAILABLE: the call was stopped before it finished, so the caller may run it again on another replica.
 */
export class DrainSignal extends Error {
  constructor(timeoutMs: number) {
    super(`the adapter's node shut down: the call was stopped at its drain deadline (${timeoutMs} ms)`);
  }
}

/**
 * The calls one adapter actor is running, by call id, and its drain (issue 20). While draining, a new call is refused
 * before it starts with Moleculer's ServiceNotAvailableError (retryable, SERVICE_NOT_AVAILABLE): the registry's
 * dispatch runs it on another replica, and it never runs twice because it never ran here.
 */
export class InFlightCalls extends Map<string, AbortController> {
  private isDraining = false;
  private refusedCount = 0;
  private emptied: (() => void)[] = [];

  /** Whether the actor drains: refusing new calls, its node leaving the bus. */
  get draining(): boolean {
    return this.isDraining;
  }

  /** Throws the retryable refusal when the actor is draining; counts it. */
  refuseWhileDraining(action: string, nodeID: string): void {
    if (!this.isDraining) return;
    this.refusedCount++;
    throw new moleculer.Errors.ServiceNotAvailableError({ action, nodeID });
  }

  override delete(callId: string): boolean {
    const had = super.delete(callId);
    if (this.size === 0) for (const done of this.emptied.splice(0)) done();
    return had;
  }

  /**
   * Refuses new calls from now on, waits up to `timeoutMs` for the running ones to answer, then aborts the rest with a
   * DrainSignal and waits for them to answer that (each abort settles its call at once: the kit races the handler).
   */
  async drain(timeoutMs: number): Promise<Omit<DrainReport, 'adapter'>> {
    this.isDraining = true;
    const inFlight = this.size;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), timeoutMs)));
    const outcome = await Promise.race([this.whenEmpty().then(() => 'empty' as const), deadline]);
    clearTimeout(timer);
    const aborted = outcome === 'deadline' ? this.size : 0;
    if (aborted) {
      for (const c of this.values()) c.abort(new DrainSignal(timeoutMs));
      await this.whenEmpty();
    }
    return { in_flight: inFlight, finished: inFlight - aborted, aborted, refused: this.refusedCount };
  }

  private whenEmpty(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.emptied.push(resolve));
  }
}
