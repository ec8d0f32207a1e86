import { EventEmitter, once } from 'node:events';
import type { Logger } from '../../brokers/logger.ts';
import type { ChatEvent, ChatEventType } from '../../contracts/chat.ts';
import type { ChatStore } from './chat.store.ts';

/** Events of a running turn kept in memory for its readers (a reconnect further back reads the table). */
const RECENT = 2_000;
/** How long events gather before they are written (readers on other nodes see them this much later). */
const FLUSH_MS = 20;

interface Open {
  next: number;
  recent: ChatEvent[];
  queue: ChatEvent[];
  written: Promise<void>;
  timer?: NodeJS.Timeout;
}

/**
 * The events of the threads whose turns run on this node. A running turn is the only writer of its thread, so it
 * numbers its events here, hands them at once to this node's readers (the SSE streams) and writes them behind, in
 * batches gathered over FLUSH_MS, to chat_events; each batch is announced on the database channel for readers on other nodes, which read the
 * table. `close` waits for the writes and drops the memory.
 */
export class ThreadEventLog {
  private readonly open = new Map<string, Open>();
  private readonly appended = new EventEmitter().setMaxListeners(0);
  private readonly store: ChatStore;
  private readonly log: Logger;
  private readonly now: () => Date;

  constructor(store: ChatStore, log: Logger, now: () => Date) {
    this.store = store;
    this.log = log;
    this.now = now;
  }

  /** Starts numbering a thread's events after its last stored one (its turn is about to run here). */
  async begin(threadId: string): Promise<void> {
    if (this.open.has(threadId)) return;
    const last = await this.store.lastSeq(threadId);
    this.open.set(threadId, { next: last + 1, recent: [], queue: [], written: Promise.resolve() });
  }

  /**
   * Appends an event of a begun thread: this node's readers have it at once; it is stored with the others of the next
   * FLUSH_MS (one statement for a burst), and `close` stores what is left before the turn is said to be over.
   */
  emit(threadId: string, turn_id: string, type: ChatEventType, data: object): Promise<void> {
    const t = this.open.get(threadId);
    if (!t) return Promise.reject(new Error(`chat thread ${threadId} has no turn running here`));
    const ev: ChatEvent = {
      seq: t.next++,
      turn_id,
      type,
      data: JSON.parse(JSON.stringify(data)) as Record<string, unknown>,
      at: this.now().toISOString(),
    };
    t.recent.push(ev);
    if (t.recent.length > RECENT) t.recent.splice(0, t.recent.length - RECENT);
    t.queue.push(ev);
    this.appended.emit(threadId);
    t.timer ??= setTimeout(() => this.writeNow(threadId, t), FLUSH_MS);
    return Promise.resolve();
  }

  private writeNow(threadId: string, t: Open): void {
    clearTimeout(t.timer);
    t.timer = undefined;
    t.written = t.written.then(() => this.flush(threadId, t));
  }

  /** Writes what gathered (events arriving meanwhile wait for the next FLUSH_MS). */
  private async flush(threadId: string, t: Open): Promise<void> {
    const batch = t.queue.splice(0);
    if (!batch.length) return;
    try {
      await this.store.insertEvents(threadId, batch);
    } catch (err) {
      this.log.error({ err, thread_id: threadId, events: batch.length }, 'chat events not stored');
    }
  }

  /** Waits for the thread's writes, then forgets it (readers go to the table). */
  async close(threadId: string): Promise<void> {
    const t = this.open.get(threadId);
    if (!t) return;
    do {
      if (t.queue.length) this.writeNow(threadId, t);
      await t.written;
    } while (t.queue.length);
    if (!t.timer) this.open.delete(threadId);
  }

  /** Wakes this node's readers of a thread after another node stored events of it. */
  announced(threadId: string): void {
    if (!this.open.has(threadId)) this.appended.emit(threadId);
  }

  /**
   * The thread's events after `afterSeq` (of `turnId` only, when given), waiting up to `waitMs` for the first: from
   * memory when the thread's turn runs here and holds them, else from the table.
   */
  async read(threadId: string, afterSeq: number, turnId: string | undefined, waitMs: number): Promise<ChatEvent[]> {
    const ac = new AbortController();
    const pick = (evs: readonly ChatEvent[]) =>
      evs.filter((e) => e.seq > afterSeq && (!turnId || e.turn_id === turnId));
    // Listening starts before the read, so an append between the read and the wait is not missed.
    const next = () =>
      once(this.appended, threadId, { signal: ac.signal }).then(
        () => true,
        () => null,
      );
    let woke = waitMs ? next() : null;
    const timer = waitMs ? setTimeout(() => ac.abort(), waitMs) : undefined;
    try {
      let events = await this.fetch(threadId, afterSeq, turnId, pick);
      while (!events.length && woke) {
        if ((await woke) === null) break; // waited waitMs
        woke = next();
        // Events of one burst (a provider's chunks read together, a step's tool calls) go out in one answer.
        await new Promise((resolve) => setImmediate(resolve));
        events = await this.fetch(threadId, afterSeq, turnId, pick);
      }
      return events;
    } finally {
      clearTimeout(timer);
      ac.abort();
    }
  }

  private async fetch(
    threadId: string,
    afterSeq: number,
    turnId: string | undefined,
    pick: (evs: readonly ChatEvent[]) => ChatEvent[],
  ): Promise<ChatEvent[]> {
    const t = this.open.get(threadId);
    if (t && (t.recent[0]?.seq ?? t.next) <= afterSeq + 1) return pick(t.recent);
    return this.store.events(threadId, afterSeq, turnId);
  }
}
