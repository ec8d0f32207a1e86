import type { Db, Queryable } from '../../brokers/db/index.ts';
import type { ChatEvent, ChatEventType, ChatMessageRecord, ChatThread } from '../../contracts/chat.ts';
import type { ModelToolCall } from '../../contracts/harness-calls.ts';

interface ThreadRow {
  id: string;
  project_id: string | null;
  run_id: string | null;
  title: string;
  created_at: Date;
  updated_at: Date;
  turn_id: string | null;
  turn_status: 'running' | 'done' | 'failed' | null;
}
interface MessageRow {
  seq: number;
  role: ChatMessageRecord['role'];
  content: string;
  tool_calls: ModelToolCall[];
  tool_call_id: string | null;
  turn_id: string | null;
  created_at: Date;
}
interface EventRow {
  seq: number;
  turn_id: string;
  type: ChatEventType;
  data: Record<string, unknown>;
  at: Date;
}

const toThread = (r: ThreadRow): ChatThread => ({
  id: r.id,
  project_id: r.project_id,
  run_id: r.run_id,
  title: r.title,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  last_turn: r.turn_id ? { id: r.turn_id, status: r.turn_status! } : null,
});
const toMessage = (r: MessageRow): ChatMessageRecord => ({ ...r, created_at: r.created_at.toISOString() });
const toEvent = (r: EventRow): ChatEvent => ({ ...r, at: r.at.toISOString() });

/** A thread with its last turn (the newest by start). */
const THREAD_SELECT = `SELECT t.*, lt.id AS turn_id, lt.status AS turn_status FROM chat_threads t
  LEFT JOIN LATERAL (SELECT id, status FROM chat_turns WHERE thread_id = t.id ORDER BY started_at DESC, id DESC LIMIT 1) lt
  ON true`;

/** A message to store: what the model said or was told. */
export interface NewMessage {
  role: ChatMessageRecord['role'];
  content: string;
  tool_calls?: ModelToolCall[];
  tool_call_id?: string | null;
}

/** The channel a stored event is announced on (`thread_id:seq`): every chat node's waiters wake on it. */
export const CHAT_EVENTS_CHANNEL = 'chat_events';

/** SQL of the chat actor's tables; the only code that touches them. */
export function createChatStore(db: Db) {
  /** Appends messages numbered after the thread's last, in one statement, and touches the thread. */
  async function appendMessages(q: Queryable, threadId: string, turnId: string | null, msgs: NewMessage[], at: Date) {
    const { rows } = await q.query<MessageRow>(
      `WITH base AS (SELECT coalesce(max(seq), 0) AS n FROM chat_messages WHERE thread_id = $1)
       INSERT INTO chat_messages (thread_id, seq, role, content, tool_calls, tool_call_id, turn_id, created_at)
       SELECT $1, base.n + m.ord, m.role, m.content, m.tool_calls, m.tool_call_id, $6, $7
       FROM base, unnest($2::text[], $3::text[], $4::jsonb[], $5::text[]) WITH ORDINALITY
         AS m(role, content, tool_calls, tool_call_id, ord)
       RETURNING seq, role, content, tool_calls, tool_call_id, turn_id, created_at`,
      [
        threadId,
        msgs.map((m) => m.role),
        msgs.map((m) => m.content),
        msgs.map((m) => JSON.stringify(m.tool_calls ?? [])),
        msgs.map((m) => m.tool_call_id ?? null),
        turnId,
        at,
      ],
    );
    await q.query('UPDATE chat_threads SET updated_at = $2 WHERE id = $1', [threadId, at]);
    return rows.map(toMessage).sort((x, y) => x.seq - y.seq);
  }

  return {
    async createThread(t: { id: string; project_id?: string; run_id?: string; title: string }, at: Date) {
      await db.query(
        'INSERT INTO chat_threads (id, project_id, run_id, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)',
        [t.id, t.project_id ?? null, t.run_id ?? null, t.title, at],
      );
      return (await this.thread(t.id))!;
    },

    async thread(id: string): Promise<ChatThread | undefined> {
      const { rows } = await db.query<ThreadRow>(`${THREAD_SELECT} WHERE t.id = $1`, [id]);
      return rows[0] && toThread(rows[0]);
    },

    async listThreads(q: { project_id?: string; limit: number; offset: number }) {
      const where = q.project_id ? 'WHERE t.project_id = $3' : '';
      const args: unknown[] = [q.limit, q.offset, ...(q.project_id ? [q.project_id] : [])];
      const [page, count] = await Promise.all([
        db.query<ThreadRow>(`${THREAD_SELECT} ${where} ORDER BY t.updated_at DESC, t.id LIMIT $1 OFFSET $2`, args),
        db.query<{ n: string }>(
          `SELECT count(*) AS n FROM chat_threads t ${q.project_id ? 'WHERE t.project_id = $1' : ''}`,
          q.project_id ? [q.project_id] : [],
        ),
      ]);
      return { threads: page.rows.map(toThread), total: Number(count.rows[0].n) };
    },

    async messages(threadId: string): Promise<ChatMessageRecord[]> {
      const { rows } = await db.query<MessageRow>(
        `SELECT seq, role, content, tool_calls, tool_call_id, turn_id, created_at FROM chat_messages
         WHERE thread_id = $1 ORDER BY seq`,
        [threadId],
      );
      return rows.map(toMessage);
    },

    /**
     * Starts a turn with its user message, in one transaction; null when a turn of the thread is still running
     * (the partial unique index refuses a second one).
     */
    async startTurn(threadId: string, turnId: string, content: string, at: Date) {
      try {
        return await db.tx(async (q) => {
          await q.query(
            "INSERT INTO chat_turns (id, thread_id, status, started_at, heartbeat_at) VALUES ($1, $2, 'running', $3, $3)",
            [turnId, threadId, at],
          );
          const [message] = await appendMessages(q, threadId, turnId, [{ role: 'user', content }], at);
          return message!;
        });
      } catch (err) {
        if ((err as { code?: string }).code === '23505') return null;
        throw err;
      }
    },

    /** Ends a turn: the messages it added, its status. */
    async endTurn(threadId: string, turnId: string, msgs: NewMessage[], status: 'done' | 'failed', at: Date) {
      await db.tx(async (q) => {
        if (msgs.length) await appendMessages(q, threadId, turnId, msgs, at);
        await q.query('UPDATE chat_turns SET status = $2, ended_at = $3 WHERE id = $1', [turnId, status, at]);
      });
    },

    /** Renews the lease of the turns this node runs. */
    async renew(turnIds: readonly string[], at: Date): Promise<void> {
      if (!turnIds.length) return;
      await db.query("UPDATE chat_turns SET heartbeat_at = $2 WHERE id = ANY($1::text[]) AND status = 'running'", [
        turnIds,
        at,
      ]);
    },

    /** Ends a running turn whose lease lapsed before `before` as failed; false when another node did, or it renewed. */
    async failLapsed(turnId: string, before: Date, at: Date): Promise<boolean> {
      const { rows } = await db.query(
        `UPDATE chat_turns SET status = 'failed', ended_at = $3
         WHERE id = $1 AND status = 'running' AND heartbeat_at < $2 RETURNING id`,
        [turnId, before, at],
      );
      return rows.length > 0;
    },

    /** Running turns whose lease lapsed before `before`: no node runs them any more. */
    async lapsedTurns(before: Date): Promise<{ id: string; thread_id: string }[]> {
      const { rows } = await db.query<{ id: string; thread_id: string }>(
        "SELECT id, thread_id FROM chat_turns WHERE status = 'running' AND heartbeat_at < $1 ORDER BY started_at",
        [before],
      );
      return rows;
    },

    /**
     * Stores events already numbered by the thread's running turn (one writer per thread) and announces the last
     * number on the channel, in one statement (on a PostgreSQL server; an embedded PGlite database has one node).
     */
    async insertEvents(threadId: string, events: readonly ChatEvent[]): Promise<void> {
      await db.query(
        `WITH ins AS (
           INSERT INTO chat_events (thread_id, seq, turn_id, type, data, at)
           SELECT $1, e.seq, e.turn_id, e.type, e.data, e.at
           FROM unnest($2::int[], $3::text[], $4::text[], $5::jsonb[], $6::timestamptz[]) AS e(seq, turn_id, type, data, at)
           RETURNING seq
         )
         SELECT ${db.kind === 'pg' ? "pg_notify($7, $1 || ':' || max(seq))" : 'max(seq), $7::text'} FROM ins`,
        [
          threadId,
          events.map((e) => e.seq),
          events.map((e) => e.turn_id),
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => e.at),
          CHAT_EVENTS_CHANNEL,
        ],
      );
    },

    async events(threadId: string, afterSeq: number, turnId?: string): Promise<ChatEvent[]> {
      const { rows } = await db.query<EventRow>(
        `SELECT seq, turn_id, type, data, at FROM chat_events
         WHERE thread_id = $1 AND seq > $2 AND ($3::text IS NULL OR turn_id = $3) ORDER BY seq LIMIT 1000`,
        [threadId, afterSeq, turnId ?? null],
      );
      return rows.map(toEvent);
    },

    /** The last event's number of a thread (0: none). */
    async lastSeq(threadId: string): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        'SELECT coalesce(max(seq), 0)::int AS n FROM chat_events WHERE thread_id = $1',
        [threadId],
      );
      return rows[0].n;
    },

    listen: (onPayload: (payload: string) => void) => db.listen(CHAT_EVENTS_CHANNEL, onPayload),
  };
}
export type ChatStore = ReturnType<typeof createChatStore>;
