import type { HoldState } from './hold.machine.ts';

/** A held call waiting on this replica: the promise its `holds.request` awaits, and the question it put to the client. */
export interface Waiter {
  readonly id: string;
  readonly callId: string;
  /** The gateway node holding the call's stream (progress and questions go there). */
  readonly progressNode?: string;
  /** The record as created: answers the call if this replica stops before the hold ends. */
  readonly initial: HoldState;
  /** JSON-RPC id of the `elicitation/create` still awaiting the client's answer. */
  question?: string;
  /** Set once the hold ended: a question answered or failing after that is ignored. */
  ended: boolean;
  readonly done: Promise<HoldState>;
}

/** The held calls waiting on this replica, by ledger id and by call id (cancellation finds them by call). */
export class Waiters {
  private readonly byId = new Map<string, Waiter & { resolve(s: HoldState): void }>();
  private readonly byCall = new Map<string, string>();

  add(initial: HoldState, progressNode: string | undefined): Waiter {
    let resolve!: (s: HoldState) => void;
    const done = new Promise<HoldState>((r) => (resolve = r));
    const w = { id: initial.id, callId: initial.call_id ?? '', progressNode, initial, ended: false, done, resolve };
    this.byId.set(w.id, w);
    this.byCall.set(w.callId, w.id);
    return w;
  }

  get(id: string): Waiter | undefined {
    return this.byId.get(id);
  }

  forCall(callId: string): Waiter | undefined {
    const id = this.byCall.get(callId);
    return id ? this.byId.get(id) : undefined;
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** Wakes the call waiting on this record once it left awaiting_approval; false when none waits here or it still waits. */
  settle(s: HoldState): boolean {
    const w = this.byId.get(s.id);
    if (!w || s.status === 'awaiting_approval') return false;
    this.byId.delete(s.id);
    this.byCall.delete(w.callId);
    w.ended = true;
    w.resolve(s);
    return true;
  }

  /** Ends every wait with `end(initial)` (this replica stops; the records stay awaiting and a restart orphans them). */
  releaseAll(end: (initial: HoldState) => HoldState): void {
    for (const w of [...this.byId.values()]) this.settle(end(w.initial));
  }
}
