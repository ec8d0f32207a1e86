import type { Db } from '../../brokers/db/index.ts';
import type { Experience, InsightEvent, RelevantEvent } from '../../contracts/sessions.ts';
import { toEvent, toSession, type EventRow, type SessionRow } from './sessions.store.ts';

const toRelevantEvent = (r: EventRow & { score: number }): RelevantEvent => ({ ...toEvent(r), score: Number(r.score) });

/**
 * The query's words as an OR query: every lexeme `to_tsvector` finds, quoted (backslash and quote escaped, chr(92)
 * is a backslash) and joined with `|`. Any user text is safe; a text of stop words only gives NULL, which matches nothing.
 */
const OR_QUERY = `(SELECT string_agg('''' || replace(replace(t.lexeme, chr(92), chr(92) || chr(92)), '''', '''''') || '''', ' | ')
  FROM unnest(to_tsvector('english', $1)) AS t)::tsquery`;

/** Index expressions of 0012_memory.sql (indexes on this actor's tables for these reads): keep them identical so the planner uses the GIN indexes. */
const SESSION_TEXT = `to_tsvector('english', s.title || ' ' || COALESCE(s.summary, ''))`;
const EVENT_TEXT = `to_tsvector('english', e.message)`;

/** Relevant events listed per experience. */
export const EVENTS_PER_EXPERIENCE = 3;

/**
 * The sessions actor's read-only searches over its own tables, served as query actions for the memory actor
 * (`sessions.searchSimilar`, `sessions.insightEvents`).
 */
export function createSessionSearch(db: Db) {
  return {
    /**
     * Sessions whose title, summary or events share words with the query, ranked by `ts_rank` over one weighted
     * document (title A, summary B, event messages C), each with its best-matching events.
     */
    async similar(query: string, projectId: string | null, limit: number): Promise<Experience[]> {
      const { rows } = await db.query<SessionRow & { score: number }>(
        `WITH q AS (SELECT ${OR_QUERY} AS q),
         cand AS (
           SELECT s.id FROM agent_sessions s CROSS JOIN q WHERE ${SESSION_TEXT} @@ q.q
           UNION
           SELECT e.session_id FROM agent_session_events e CROSS JOIN q WHERE ${EVENT_TEXT} @@ q.q
         )
         SELECT s.*, ts_rank(
             setweight(to_tsvector('english', s.title), 'A')
             || setweight(to_tsvector('english', COALESCE(s.summary, '')), 'B')
             || setweight(ev.doc, 'C'), q.q) AS score
         FROM agent_sessions s JOIN cand ON cand.id = s.id CROSS JOIN q
         CROSS JOIN LATERAL (
           SELECT to_tsvector('english', COALESCE(string_agg(e.message, ' ' ORDER BY e.seq), '')) AS doc
           FROM agent_session_events e WHERE e.session_id = s.id
         ) ev
         WHERE ($2::text IS NULL OR s.project_id = $2)
         ORDER BY score DESC, s.started_at DESC, s.ord DESC
         LIMIT $3`,
        [query, projectId, limit],
      );
      if (rows.length === 0) return [];
      const events = await db.query<EventRow & { score: number }>(
        `WITH q AS (SELECT ${OR_QUERY} AS q)
         SELECT * FROM (
           SELECT e.*, ts_rank(${EVENT_TEXT}, q.q) AS score,
                  row_number() OVER (PARTITION BY e.session_id ORDER BY ts_rank(${EVENT_TEXT}, q.q) DESC, e.seq) AS rn
           FROM agent_session_events e CROSS JOIN q
           WHERE e.session_id = ANY($2::uuid[]) AND ${EVENT_TEXT} @@ q.q
         ) ranked
         WHERE rn <= $3
         ORDER BY session_id, score DESC, seq`,
        [query, rows.map((r) => r.id), EVENTS_PER_EXPERIENCE],
      );
      return rows.map((r) => ({
        session: toSession(r),
        score: Number(r.score),
        events: events.rows.filter((e) => e.session_id === r.id).map(toRelevantEvent),
      }));
    },

    /** Events of kind insight or lesson, newest first, as logged. */
    async insights(projectId: string | null, theme: string | null, limit: number): Promise<InsightEvent[]> {
      const { rows } = await db.query<EventRow & { session_title: string; project_id: string | null }>(
        `SELECT e.*, s.title AS session_title, s.project_id
         FROM agent_session_events e JOIN agent_sessions s ON s.id = e.session_id
         WHERE e.kind IN ('insight', 'lesson')
           AND ($1::text IS NULL OR s.project_id = $1)
           AND ($2::text IS NULL OR e.data->>'theme' = $2)
         ORDER BY e.created_at DESC, e.ord DESC
         LIMIT $3`,
        [projectId, theme, limit],
      );
      return rows.map((r) => ({
        session_id: r.session_id,
        session_title: r.session_title,
        project_id: r.project_id,
        seq: r.seq,
        kind: r.kind as 'insight' | 'lesson',
        message: r.message,
        theme: typeof r.data?.theme === 'string' ? r.data.theme : null,
        data: r.data ?? {},
        created_at: r.created_at.toISOString(),
      }));
    },
  };
}

/** The session search's interface. */
export type SessionSearch = ReturnType<typeof createSessionSearch>;
