import { z } from 'zod';

/**
 * Knowledge sources and their full-text search (SPEC "Endpoints": `/v1/knowledge/sources`; TOOLS.md `knowledge`:
 * Postgres full-text search). Field choices are documented in README ("Knowledge").
 */

/** Largest text one `knowledge.ingest` accepts, in UTF-8 bytes (5 MB). */
export const KNOWLEDGE_TEXT_MAX_BYTES = 5 * 1024 * 1024;

/** UTF-8 length of a string without allocating it (contracts also run outside Node). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** One ingested source; `content_sha256` is unique per project (the same text ingested twice is one source). */
export const KnowledgeSourceSchema = z.object({
  id: z.string(),
  title: z.string(),
  uri: z.string().nullable(),
  project_id: z.string().nullable(),
  media_type: z.string(),
  content_sha256: z.string(),
  bytes: z.number().int().min(0),
  chunk_count: z.number().int().min(0),
  created_at: z.string(),
});
export type KnowledgeSource = z.infer<typeof KnowledgeSourceSchema>;

/** `GET /v1/knowledge/sources/{id}`: the source with its text re-assembled from its chunks. */
export const KnowledgeSourceWithTextSchema = KnowledgeSourceSchema.extend({ text: z.string() });
export type KnowledgeSourceWithText = z.infer<typeof KnowledgeSourceWithTextSchema>;

/** `knowledge.ingest` arguments. */
export const KnowledgeIngestSchema = z.object({
  title: z.string().trim().min(1).max(500),
  text: z
    .string()
    .min(1)
    .max(KNOWLEDGE_TEXT_MAX_BYTES)
    .refine((t) => t.trim().length > 0, { message: 'text is blank' })
    .refine((t) => utf8Length(t) <= KNOWLEDGE_TEXT_MAX_BYTES, {
      message: `text is larger than ${KNOWLEDGE_TEXT_MAX_BYTES} bytes`,
    }),
  uri: z.string().min(1).max(2000).optional(),
  project_id: z.string().min(1).max(200).optional(),
  media_type: z.string().min(1).max(200).default('text/plain'),
});
export type KnowledgeIngest = z.infer<typeof KnowledgeIngestSchema>;

/** `knowledge.ingest` result: the source, and whether the same content was already there. */
export const KnowledgeIngestResultSchema = z.object({ source: KnowledgeSourceSchema, duplicate: z.boolean() });
export type KnowledgeIngestResult = z.infer<typeof KnowledgeIngestResultSchema>;

/** `knowledge.search` arguments; the query is read with `websearch_to_tsquery`, so any user text is safe. */
export const KnowledgeSearchSchema = z.object({
  query: z.string().trim().min(1).max(2000),
  project_id: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(50).default(5),
});
export type KnowledgeSearch = z.infer<typeof KnowledgeSearchSchema>;

/** One hit with its citation: the source, the chunk ordinal, a highlighted snippet and the `ts_rank` score. */
export const KnowledgeCitationSchema = z.object({
  source_id: z.string(),
  title: z.string(),
  uri: z.string().nullable(),
  chunk: z.number().int().min(0),
  snippet: z.string(),
  score: z.number(),
});
export type KnowledgeCitation = z.infer<typeof KnowledgeCitationSchema>;

/** `knowledge.search` result, best first; no match is an empty list. */
export const KnowledgeSearchResultSchema = z.object({ query: z.string(), hits: z.array(KnowledgeCitationSchema) });
export type KnowledgeSearchResult = z.infer<typeof KnowledgeSearchResultSchema>;

/** `GET /v1/knowledge/sources` query. */
export const KnowledgeSourceListQuerySchema = z.object({
  project_id: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type KnowledgeSourceListQuery = z.infer<typeof KnowledgeSourceListQuerySchema>;

/** `GET /v1/knowledge/sources` answer, newest first. */
export const KnowledgeSourceListSchema = z.object({
  sources: z.array(KnowledgeSourceSchema),
  total: z.number().int().min(0),
  /** With a project filter: the items left out because they record no project (as the approvals list). */
  unscoped_count: z.number().int().min(0).default(0),
});
export type KnowledgeSourceList = z.infer<typeof KnowledgeSourceListSchema>;
