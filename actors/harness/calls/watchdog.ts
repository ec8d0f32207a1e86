import { HarnessCallError } from './errors.ts';

/**
 * The abort signal of one model call: follows the caller's signal and, once the stream has begun, aborts when no
 * chunk arrived for `idleMs`. Both SDKs end a stream quietly on abort, so `check()` turns what happened into a
 * classified failure. The SDK's own `timeout` covers the wait for the response headers.
 */
export class Watchdog {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private idle = false;
  private readonly onParentAbort = () => this.controller.abort();
  private readonly idleMs: number;
  private readonly parent: AbortSignal | undefined;

  constructor(idleMs: number, parent?: AbortSignal) {
    this.idleMs = idleMs;
    this.parent = parent;
    if (parent?.aborted) this.controller.abort();
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A chunk arrived: restart the idle clock (armed on the first call). `refresh` reuses the timer: no allocation. */
  touch(): void {
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.idle = true;
      this.controller.abort();
    }, this.idleMs);
  }

  /** Throws the classified failure when the call was cut by the idle clock or by its caller. */
  check(): void {
    if (this.idle) {
      throw HarnessCallError.of('transient', `the provider sent nothing for ${this.idleMs} ms mid-stream`);
    }
    if (this.parent?.aborted) throw HarnessCallError.of('unknown', 'the call was cancelled by its caller');
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }
}
