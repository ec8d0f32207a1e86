import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ComponentHealthSchema } from '../health.ts';
import { ConsolidateParamsSchema, ConsolidateResultSchema } from '../memory.ts';
import { ExperienceListSchema, ExperienceQuerySchema, InsightListSchema, InsightQuerySchema } from '../sessions.ts';

/**
 * Bus actions of the `memory` actor (README "Memory"): views over the captured sessions, read through the sessions
 * actor, and the consolidated insights it owns (table memory_insights).
 */
export const MemoryActions = {
  similar: defineAction('memory.similar', ExperienceQuerySchema, ExperienceListSchema),
  insights: defineAction('memory.insights', InsightQuerySchema, InsightListSchema),
  /**
   * Runs the `summarisation` role over the recent sessions and their verbatim insights and writes what it answers,
   * in one transaction. A harness failure, or a model answer that is not the asked JSON, writes nothing and is
   * SERVICE_UNAVAILABLE with `failure_class`.
   */
  consolidate: defineAction('memory.consolidate', ConsolidateParamsSchema, ConsolidateResultSchema),
  health: defineAction('memory.health', z.object({}), ComponentHealthSchema),
} as const;
