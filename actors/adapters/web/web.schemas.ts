import { z } from 'zod';

/** `web.fetch` arguments (README "Web"): http/https only, body capped at max_bytes, whole call capped at timeout_seconds. */
export const WebFetchInputSchema = z.object({
  url: z.string().min(1).max(8192),
  max_bytes: z.number().int().min(1).max(20_000_000).default(2_000_000),
  timeout_seconds: z.number().int().min(1).max(120).default(20),
});
export type WebFetchInput = z.infer<typeof WebFetchInputSchema>;

/**
 * `web.fetch` result. Textual bodies come as `text` (for HTML: the readable text, with the markup in `html` and the
 * page `title`); any other body as `base64`. `bytes` counts the (decompressed) bytes kept.
 */
export const WebFetchResultSchema = z.object({
  url: z.string(),
  final_url: z.string(),
  status: z.number().int(),
  content_type: z.string().nullable(),
  content_length: z.number().int().nullable(),
  bytes: z.number().int().min(0),
  truncated: z.boolean(),
  encoding: z.enum(['text', 'base64']),
  text: z.string().optional(),
  html: z.string().optional(),
  title: z.string().nullable().optional(),
  base64: z.string().optional(),
});
export type WebFetchResult = z.infer<typeof WebFetchResultSchema>;

/** `web.search` arguments. */
export const WebSearchInputSchema = z.object({
  query: z.string().trim().min(1).max(1000),
  limit: z.number().int().min(1).max(50).default(10),
});
export type WebSearchInput = z.infer<typeof WebSearchInputSchema>;

/** One search result as the endpoint gave it. */
export const WebSearchHitSchema = z.object({ title: z.string(), url: z.string(), snippet: z.string() });
export type WebSearchHit = z.infer<typeof WebSearchHitSchema>;

/** `web.search` result; no result is an empty list. */
export const WebSearchResultSchema = z.object({ query: z.string(), results: z.array(WebSearchHitSchema) });
export type WebSearchResult = z.infer<typeof WebSearchResultSchema>;

/** What a SearxNG-compatible endpoint answers to `?q=<query>&format=json` (only the fields used; others ignored). */
export const SearxResponseSchema = z.looseObject({
  results: z.array(
    z.looseObject({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
    }),
  ),
});
