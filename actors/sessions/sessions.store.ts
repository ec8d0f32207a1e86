import { isUuid, pageByProject, type Db, type Queryable } from '../../brokers/db/index.ts';
import type {
  AgentSession,
  SessionEvent,
  SessionEventKind,
  SessionList,
  SessionListQuery,
  SessionStart,
  SessionStatus,
  SessionWithEvents,
} from '../../contracts/sessions.ts';
import { decide, type SessionCommand, type SessionEnv, type SessionRefusal } from './sessions.machine.ts';

/** A row of agent_sessions (sessions.search.ts reads it too, for the memory actor's query actions). */
export interface SessionRow {
  id: string;
  project_id: string | null;
  title: string;
  client: string | null;
  status: SessionStatus;
  summary: string | null;
  event_count: number;
  started_at: Date;
  completed_at: Date | null;
}

/** A row of agent_session_events. */
export interface EventRow {
  session_id: string;
  seq: number;
  kind: SessionEventKind;
  message: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** Maps a session row to its record. */
export const toSession = (r: SessionRow): AgentSession => ({
  id: r.id,
  project_id: r.project_id,
  title: r.title,
  client: r.client,
  status: r.status,
  summary: r.summary,
  started_at: r.started_at.toISOString(),
  completed_at: r.completed_at ? r.completed_at.toISOString() : null,
  event_count: r.event_count,
});

/** Maps an event row to its record. */
export const toEvent = (r: EventRow): SessionEvent => ({
  session_id: r.session_id,
  seq: r.seq,
  kind: r.kind,
  message: r.message,
  data: r.data ?? {},
  created_at: r.created_at.toISOString(),
});

/** Outcome of a command: the updated session (and the appended event), or the machine's refusal. */
export type ApplyOutcome =
  { ok: true; session: AgentSession; event?: SessionEvent } | { ok: false; refusal: SessionRefusal };

/** SQL of agent_sessions and agent_session_events; the only code that writes them. */
export function createSessionStore(db: Db) {
  return {
    async start(id: string, input: SessionStart, now: Date): Promise<AgentSession> {
      const { rows } = await db.query<SessionRow>(
        `INSERT INTO agent_sessions (id, project_id, title, client, started_at) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [id, input.project_id ?? null, input.title, input.client ?? null, now],
      );
      return toSession(rows[0]);
    },

    /** One transaction: lock the session row, decide, persist the effects. Concurrent events get consecutive seqs. */
    apply(id: string, cmd: SessionCommand, env: SessionEnv): Promise<ApplyOutcome> {
      return db.tx(async (q) => {
        const row = isUuid(id)
          ? (await q.query<SessionRow>('SELECT * FROM agent_sessions WHERE id = $1 FOR UPDATE', [id])).rows[0]
          : undefined;
        const decision = decide(id, row && { status: row.status, event_count: row.event_count }, cmd, env);
        if (!decision.ok) return decision;
        let event: SessionEvent | undefined;
        for (const effect of decision.effects) {
          if (effect.type === 'append_event') {
            const { rows } = await q.query<EventRow>(
              `INSERT INTO agent_session_events (session_id, seq, kind, message, data, created_at)
               VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING *`,
              [id, effect.seq, effect.kind, effect.message, JSON.stringify(effect.data), effect.at],
            );
            event = toEvent(rows[0]);
          } else {
            await q.query(
              `UPDATE agent_sessions SET status = 'completed', summary = $2, completed_at = $3 WHERE id = $1`,
              [id, effect.summary, effect.at],
            );
          }
        }
        const { rows } = await q.query<SessionRow>(
          'UPDATE agent_sessions SET event_count = $2 WHERE id = $1 RETURNING *',
          [id, decision.state.event_count],
        );
        return { ok: true, session: toSession(rows[0]), event };
      });
    },

    async list(query: SessionListQuery): Promise<SessionList> {
      const page = await pageByProject<SessionRow>(db, 'agent_sessions', 'started_at DESC, ord DESC', query);
      return { sessions: page.rows.map(toSession), total: page.total, unscoped_count: page.unscoped_count };
    },

    async get(id: string): Promise<SessionWithEvents | undefined> {
      if (!isUuid(id)) return undefined;
      const { rows } = await db.query<SessionRow>('SELECT * FROM agent_sessions WHERE id = $1', [id]);
      if (!rows[0]) return undefined;
      const events = await db.query<EventRow>('SELECT * FROM agent_session_events WHERE session_id = $1 ORDER BY seq', [
        id,
      ]);
      return { ...toSession(rows[0]), events: events.rows.map(toEvent) };
    },

    async ping(q: Queryable = db): Promise<void> {
      await q.query('SELECT 1 FROM agent_sessions LIMIT 1');
    },
  };
}

/** The sessions store's interface. */
export type SessionStore = ReturnType<typeof createSessionStore>;
