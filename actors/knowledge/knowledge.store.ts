import { isUuid, pageByProject, type Db, type Queryable } from '../../brokers/db/index.ts';
import { isPgError, PgErrorCodes } from '../../brokers/db/index.ts';
import type {
  KnowledgeCitation,
  KnowledgeSource,
  KnowledgeSourceList,
  KnowledgeSourceListQuery,
  KnowledgeSourceWithText,
} from '../../contracts/knowledge.ts';

const toSource = (r: SourceRow): KnowledgeSource => ({
  id: r.id,
  title: r.title,
  uri: r.uri,
  project_id: r.project_id,
  media_type: r.media_type,
  content_sha256: r.content_sha256,
  bytes: r.bytes,
  chunk_count: r.chunk_count,
  created_at: r.created_at.toISOString(),
});

/** Chunks per INSERT statement: the unit of ingest progress. */
export const INSERT_BATCH = 100;

/** A new source to store, chunked and hashed by the service. */
export interface NewSource {
  id: string;
  title: string;
  uri: string | null;
  project_id: string | null;
  media_type: string;
  content_sha256: string;
  bytes: number;
  chunks: string[];
  created_at: Date;
}

/** A stored source row (the source as written, with its chunk count instead of the chunks). */
type SourceRow = Omit<NewSource, 'chunks'> & { chunk_count: number };

/** Headline options: two fragments of 15-35 words, matches in `**bold**`. */
const HEADLINE = 'StartSel=**, StopSel=**, MinWords=15, MaxWords=35, MaxFragments=2, FragmentDelimiter=" … "';

/** SQL of knowledge_sources and knowledge_chunks; the only code that touches them. */
export function createKnowledgeStore(db: Db) {
  const findByContent = async (q: Queryable, projectId: string | null, sha: string) =>
    (
      await q.query<SourceRow>(
        "SELECT * FROM knowledge_sources WHERE COALESCE(project_id, '') = COALESCE($1, '') AND content_sha256 = $2",
        [projectId, sha],
      )
    ).rows[0];

  return {
    /**
     * Stores a source and all its chunks in one transaction, `to_tsvector` computed by the INSERT. Idempotent on
     * content: the same text for the same project answers the existing source with `duplicate: true`.
     */
    async ingest(
      src: NewSource,
      onBatch: (done: number, total: number) => void,
    ): Promise<{ source: KnowledgeSource; duplicate: boolean }> {
      const existing = await findByContent(db, src.project_id, src.content_sha256);
      if (existing) return { source: toSource(existing), duplicate: true };
      try {
        const row = await db.tx(async (q) => {
          const { rows } = await q.query<SourceRow>(
            `INSERT INTO knowledge_sources (id, title, uri, project_id, media_type, content_sha256, bytes, chunk_count, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
            [
              src.id,
              src.title,
              src.uri,
              src.project_id,
              src.media_type,
              src.content_sha256,
              src.bytes,
              src.chunks.length,
              src.created_at,
            ],
          );
          for (let i = 0; i < src.chunks.length; i += INSERT_BATCH) {
            const batch = src.chunks.slice(i, i + INSERT_BATCH);
            await q.query(
              `INSERT INTO knowledge_chunks (source_id, ordinal, text, tsv)
               SELECT $1, u.ordinal, u.text, to_tsvector('english', u.text)
               FROM unnest($2::int[], $3::text[]) AS u(ordinal, text)`,
              [src.id, batch.map((_, j) => i + j), batch],
            );
            onBatch(Math.min(i + INSERT_BATCH, src.chunks.length), src.chunks.length);
          }
          return rows[0];
        });
        return { source: toSource(row), duplicate: false };
      } catch (err) {
        // The same content ingested concurrently: the other transaction won, answer its source.
        if (!isPgError(err, PgErrorCodes.UNIQUE_VIOLATION)) throw err;
        const winner = await findByContent(db, src.project_id, src.content_sha256);
        if (!winner) throw err;
        return { source: toSource(winner), duplicate: true };
      }
    },

    /** Chunks matching `websearch_to_tsquery(query)`, best `ts_rank` first; a project sees its own and unscoped sources. */
    async search(query: string, projectId: string | null, limit: number): Promise<KnowledgeCitation[]> {
      const { rows } = await db.query<{
        source_id: string;
        title: string;
        uri: string | null;
        chunk: number;
        score: number;
        snippet: string;
      }>(
        `WITH q AS (SELECT websearch_to_tsquery('english', $1) AS q),
         top AS (
           SELECT c.source_id, c.ordinal, c.text, ts_rank(c.tsv, q.q) AS score, s.created_at, s.ord
           FROM knowledge_chunks c JOIN knowledge_sources s ON s.id = c.source_id CROSS JOIN q
           WHERE c.tsv @@ q.q AND ($2::text IS NULL OR s.project_id = $2 OR s.project_id IS NULL)
           ORDER BY score DESC, s.created_at DESC, s.ord DESC, c.ordinal
           LIMIT $3
         )
         SELECT t.source_id, s.title, s.uri, t.ordinal AS chunk, t.score, ts_headline('english', t.text, q.q, $4) AS snippet
         FROM top t JOIN knowledge_sources s ON s.id = t.source_id CROSS JOIN q
         ORDER BY t.score DESC, t.created_at DESC, t.ord DESC, t.ordinal`,
        [query, projectId, limit, HEADLINE],
      );
      return rows.map((r) => ({ ...r, score: Number(r.score) }));
    },

    async list(query: KnowledgeSourceListQuery): Promise<KnowledgeSourceList> {
      const { rows, total, unscoped_count } = await pageByProject<SourceRow>(
        db,
        'knowledge_sources',
        'created_at DESC, ord DESC',
        query,
      );
      return { sources: rows.map(toSource), total, unscoped_count };
    },

    async get(id: string): Promise<KnowledgeSourceWithText | undefined> {
      if (!isUuid(id)) return undefined;
      const { rows } = await db.query<SourceRow & { text: string | null }>(
        `SELECT s.*, (SELECT string_agg(c.text, '' ORDER BY c.ordinal) FROM knowledge_chunks c WHERE c.source_id = s.id) AS text
         FROM knowledge_sources s WHERE s.id = $1`,
        [id],
      );
      return rows[0] && { ...toSource(rows[0]), text: rows[0].text ?? '' };
    },

    async ping(): Promise<void> {
      await db.query('SELECT 1 FROM knowledge_sources LIMIT 1');
    },
  };
}

/** The knowledge store's interface. */
export type KnowledgeStore = ReturnType<typeof createKnowledgeStore>;
