import type { Db } from '../../brokers/db/index.ts';
import type { ConsolidatedInsight, InsightSource } from '../../contracts/memory.ts';
import type { MemoryTheme } from '../../contracts/misc.ts';

/** A row of memory_insights. */
interface InsightRow {
  id: string;
  project_id: string | null;
  theme: MemoryTheme;
  text: string;
  confidence: ConsolidatedInsight['confidence'];
  certainty: ConsolidatedInsight['certainty'];
  importance: number;
  sources: InsightSource[];
  model: string;
  record_id: string;
  created_at: Date;
}

const toInsight = (r: InsightRow): ConsolidatedInsight => ({
  id: r.id,
  project_id: r.project_id,
  theme: r.theme,
  text: r.text,
  confidence: r.confidence,
  certainty: r.certainty,
  importance: Number(r.importance),
  sources: r.sources,
  model: r.model,
  record_id: r.record_id,
  created_at: r.created_at.toISOString(),
});

/**
 * The query's words as an OR query, as the sessions actor's search builds it (each lexeme quoted, `|`-joined): any
 * user text is safe, and a text of stop words only gives NULL, which matches nothing.
 */
const OR_QUERY = `(SELECT string_agg('''' || replace(replace(t.lexeme, chr(92), chr(92) || chr(92)), '''', '''''') || '''', ' | ')
  FROM unnest(to_tsvector('english', $1)) AS t)::tsquery`;
/** The expression of memory_insights_fts_idx (0071_memory_insights.sql): keep them identical. */
const INSIGHT_TEXT = `to_tsvector('english', text)`;

/** SQL of memory_insights, the memory actor's one table; the only code that reads or writes it. */
export function createMemoryStore(db: Db) {
  return {
    /** Writes one consolidation run's insights in one transaction: all of them, or none. */
    async insert(insights: ConsolidatedInsight[]): Promise<void> {
      await db.tx(async (q) => {
        for (const i of insights) {
          await q.query(
            `INSERT INTO memory_insights
               (id, project_id, theme, text, confidence, certainty, importance, sources, model, record_id, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11)`,
            [
              i.id,
              i.project_id,
              i.theme,
              i.text,
              i.confidence,
              i.certainty,
              i.importance,
              JSON.stringify(i.sources),
              i.model,
              i.record_id,
              i.created_at,
            ],
          );
        }
      });
    },

    /** Newest first, optionally of one project and one theme. */
    async list(projectId: string | null, theme: string | null, limit: number): Promise<ConsolidatedInsight[]> {
      const { rows } = await db.query<InsightRow>(
        `SELECT * FROM memory_insights
         WHERE ($1::text IS NULL OR project_id = $1) AND ($2::text IS NULL OR theme = $2)
         ORDER BY created_at DESC, ord DESC
         LIMIT $3`,
        [projectId, theme, limit],
      );
      return rows.map(toInsight);
    },

    /** Insights sharing words with the query, best match first (ts_rank), optionally of one project. */
    async similar(query: string, projectId: string | null, limit: number): Promise<ConsolidatedInsight[]> {
      const { rows } = await db.query<InsightRow>(
        `WITH q AS (SELECT ${OR_QUERY} AS q)
         SELECT m.* FROM memory_insights m CROSS JOIN q
         WHERE ${INSIGHT_TEXT} @@ q.q AND ($2::text IS NULL OR m.project_id = $2)
         ORDER BY ts_rank(${INSIGHT_TEXT}, q.q) DESC, m.created_at DESC, m.ord DESC
         LIMIT $3`,
        [query, projectId, limit],
      );
      return rows.map(toInsight);
    },

    async ping(): Promise<void> {
      await db.query('SELECT 1 FROM memory_insights LIMIT 1');
    },
  };
}

/** The memory store's interface. */
export type MemoryStore = ReturnType<typeof createMemoryStore>;
