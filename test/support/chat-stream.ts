import { EventSource } from 'eventsource';
import { ChatEventTypeSchema } from '../../contracts/chat.ts';

/** One event of a chat turn's stream as a client saw it: its SSE id (the thread's event number), type and data. */
export interface SeenEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/**
 * Reads a chat stream with an SSE client library (eventsource, as a browser's EventSource would) until `agent.done`
 * or `stopAfter` events; `lastEventId` is sent as Last-Event-ID (a reconnecting client); `onEvent` sees each event as
 * it arrives (to act mid-turn, such as approving a held call).
 */
export function readChatStream(
  url: string,
  opts: { lastEventId?: string; stopAfter?: number; onEvent?(e: SeenEvent): void } = {},
): Promise<SeenEvent[]> {
  const seen: SeenEvent[] = [];
  let closed = false;
  return new Promise((resolve, reject) => {
    const es = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...init?.headers, ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}) },
        }),
    });
    for (const type of ChatEventTypeSchema.options) {
      es.addEventListener(type, (e) => {
        if (closed) return;
        const ev = { id: e.lastEventId, type, data: JSON.parse(e.data) as Record<string, unknown> };
        seen.push(ev);
        opts.onEvent?.(ev);
        if (type === 'agent.done' || seen.length === opts.stopAfter) {
          closed = true;
          es.close();
          resolve(seen);
        }
      });
    }
    es.onerror = (e) => {
      if (es.readyState === EventSource.CLOSED) reject(new Error(`stream failed: ${e.message}`));
    };
  });
}
