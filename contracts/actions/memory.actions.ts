import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ComponentHealthSchema } from '../health.ts';
import { ExperienceListSchema, ExperienceQuerySchema, InsightListSchema, InsightQuerySchema } from '../sessions.ts';

/** Bus actions of the `memory` actor: read-only views over the captured sessions (README "Memory"). */
export const MemoryActions = {
  similar: defineAction('memory.similar', ExperienceQuerySchema, ExperienceListSchema),
  insights: defineAction('memory.insights', InsightQuerySchema, InsightListSchema),
  health: defineAction('memory.health', z.object({}), ComponentHealthSchema),
} as const;
