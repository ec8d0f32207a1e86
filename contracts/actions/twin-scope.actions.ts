import { z } from 'zod';
import { defineAction } from '../define.ts';

/** An item key a run's start request lists in `revise`: a bare `KEY` (the run drafts the next revision of its head). */
export const ReviseKeySchema = z
  .string()
  .min(3)
  .max(200)
  .regex(/^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/, 'an item key such as CAD-BRACKET-7K2Q (no @n: a run revises the head)');

/**
 * The twin's run-scope action (decision 0100, a run's items are its own): `twin.declareRevisions` validates the
 * other runs' items a run's start request lists in `revise` (each must be an item of the run's project, else
 * VALIDATION_FAILED naming it, and nothing is recorded) and records them, so the run's writes of those items revise
 * them. Called by the runs actor before the run starts; declaring the same keys twice records them once.
 */
export const TwinScopeActions = {
  declareRevisions: defineAction(
    'twin.declareRevisions',
    z.object({
      run_id: z.string().min(1),
      project_id: z.string().nullable(),
      keys: z.array(ReviseKeySchema).max(50),
    }),
    z.object({
      items: z.array(
        z.object({
          key: z.string(),
          name: z.string(),
          item_type: z.string(),
          head_ref: z.string().nullable(),
          origin_run_id: z.string().nullable(),
        }),
      ),
    }),
  ),
} as const;
