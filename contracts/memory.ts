import { z } from 'zod';
import {
  ConsolidationResponseSchema,
  ConsolidationTriggerRequestSchema,
  MemoryConfidenceTierSchema,
  MemoryThemeSchema,
} from './misc.ts';

/**
 * Consolidated memory (issue 16; SPEC "Consolidation trigger request"): insights the `summarisation` model wrote from
 * a project's recent sessions, stored by the memory actor (table memory_insights). Verbatim insights stay in the
 * sessions they were logged in (contracts/sessions.ts `InsightSchema`).
 */

/** How sure the model says it is of one insight; the tier (`confidence`) says who wrote it. */
export const InsightCertaintySchema = z.enum(['high', 'medium', 'low']);
export type InsightCertainty = z.infer<typeof InsightCertaintySchema>;

/** Where a consolidated insight came from: a whole session (`seq` null) or one of its logged events. */
export const InsightSourceSchema = z.object({
  session_id: z.string(),
  seq: z.number().int().min(1).nullable(),
});
export type InsightSource = z.infer<typeof InsightSourceSchema>;

/** One stored consolidated insight; `record_id` is the harness ledger entry of the call that wrote it. */
export const ConsolidatedInsightSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  theme: MemoryThemeSchema,
  text: z.string(),
  confidence: MemoryConfidenceTierSchema,
  certainty: InsightCertaintySchema,
  importance: z.number().min(0).max(1),
  sources: z.array(InsightSourceSchema).min(1),
  model: z.string(),
  record_id: z.string(),
  created_at: z.string(),
});
export type ConsolidatedInsight = z.infer<typeof ConsolidatedInsightSchema>;

/**
 * `memory.consolidate` params: the SPEC's trigger request (the body of `POST /v1/memory/consolidate`). Only mode
 * on_demand runs; since defaults to 168 hours ago, fetchLimit (sessions read) to 20.
 */
export const ConsolidateParamsSchema = ConsolidationTriggerRequestSchema;
export type ConsolidateParams = z.infer<typeof ConsolidateParamsSchema>;

/** The SPEC's consolidation response, plus the insights this run wrote. */
export const ConsolidateResultSchema = ConsolidationResponseSchema.extend({
  insights: z.array(ConsolidatedInsightSchema),
});
export type ConsolidateResult = z.infer<typeof ConsolidateResultSchema>;

/**
 * One insight as the model must answer it: `sources` are the labels the prompt gave (S1, S1.E2); a label that was
 * not given makes the whole answer a `data` failure.
 */
export const ModelInsightSchema = z.object({
  theme: MemoryThemeSchema,
  text: z.string().trim().min(1).max(4000),
  confidence: InsightCertaintySchema,
  importance: z.number().min(0).max(1),
  sources: z.array(z.string().min(1)).min(1),
});
export const ModelInsightsSchema = z.array(ModelInsightSchema).max(50);
export type ModelInsight = z.infer<typeof ModelInsightSchema>;
