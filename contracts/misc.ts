import { z } from 'zod';

/** Compliance coverage `{project_id, total_items, evidenced_items, coverage_percent}` (SPEC "Coverage response"). */
export const CoverageResponseSchema = z.object({
  project_id: z.string(),
  total_items: z.number().int().min(0),
  evidenced_items: z.number().int().min(0),
  coverage_percent: z.number().min(0).max(100),
});
export type CoverageResponse = z.infer<typeof CoverageResponseSchema>;

/** Compliance checklist: coverage plus target_markets and items (SPEC "Checklist response"); item fields not shown. */
export const ChecklistResponseSchema = CoverageResponseSchema.extend({
  target_markets: z.array(z.string()),
  items: z.array(z.record(z.string(), z.unknown())),
});
export type ChecklistResponse = z.infer<typeof ChecklistResponseSchema>;

/** Add concept option request (SPEC "Add concept option request"): title and criteriaScores required. */
export const AddConceptOptionRequestSchema = z.object({
  title: z.string().min(1),
  criteriaScores: z.record(z.string(), z.number()),
  evidenceBackedCriteria: z.array(z.string()).default([]),
  projectId: z.string().optional(),
});
export type AddConceptOptionRequest = z.infer<typeof AddConceptOptionRequestSchema>;

/** Consolidation modes (SPEC "Consolidation trigger request", mode). */
export const ConsolidationModeSchema = z.enum(['background', 'on_demand', 'proactive', 'janitor']);
export type ConsolidationMode = z.infer<typeof ConsolidationModeSchema>;

/** Memory themes (SPEC "Consolidation trigger request", theme). */
export const MemoryThemeSchema = z.enum([
  'mechanical_validation',
  'power_analysis',
  'circuit_design_rule',
  'component_selection',
  'firmware_build',
  'simulation',
  'compliance_check',
  'misc',
]);
export type MemoryTheme = z.infer<typeof MemoryThemeSchema>;

/**
 * Body of `POST /v1/memory/consolidate` (SPEC "Consolidation trigger request"): mode defaults to on_demand, every
 * other field is an optional filter; since must not be after until.
 */
export const ConsolidationTriggerRequestSchema = z
  .object({
    mode: ConsolidationModeSchema.default('on_demand'),
    theme: MemoryThemeSchema.optional(),
    projectId: z.uuid().optional(),
    since: z.iso.datetime({ offset: true }).optional(),
    until: z.iso.datetime({ offset: true }).optional(),
    fetchLimit: z.number().int().min(1).optional(),
    minImportance: z.number().min(0).max(1).optional(),
  })
  .refine((r) => !r.since || !r.until || Date.parse(r.since) <= Date.parse(r.until), {
    message: 'since is after until',
    path: ['until'],
  });
export type ConsolidationTriggerRequest = z.infer<typeof ConsolidationTriggerRequestSchema>;

/** Answer of a consolidation run (SPEC "Consolidation trigger request", response); one reason per rejected insight. */
export const ConsolidationResponseSchema = z.object({
  mode: ConsolidationModeSchema,
  fetchedCount: z.number().int().min(0),
  groupCount: z.number().int().min(0),
  synthesizedCount: z.number().int().min(0),
  acceptedCount: z.number().int().min(0),
  rejectedCount: z.number().int().min(0),
  revalidatedCount: z.number().int().min(0),
  newlyFailedCount: z.number().int().min(0),
  rejectedReasons: z.array(z.string()),
});
export type ConsolidationResponse = z.infer<typeof ConsolidationResponseSchema>;

/** Memory confidence tiers (SPEC "Consolidation trigger request"). */
export const MemoryConfidenceTierSchema = z.enum(['verbatim', 'llm_inferred', 'derived']);
export type MemoryConfidenceTier = z.infer<typeof MemoryConfidenceTierSchema>;

/** Channel `{id, name, scope_kind, created_at}` (SPEC "Channel"); scope_kind values are not shown. */
export const ChannelSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope_kind: z.string(),
  created_at: z.iso.datetime({ offset: true }),
});
export type Channel = z.infer<typeof ChannelSchema>;

/** Channel list `{channels}` (SPEC "Channel"). */
export const ChannelListSchema = z.object({ channels: z.array(ChannelSchema) });
export type ChannelList = z.infer<typeof ChannelListSchema>;

/** Body of `POST /api/v1/assistant/request` (SPEC "Assistant request"): action, project_id required; prompt ''. */
export const AssistantRequestSchema = z.object({
  action: z.string().min(1),
  project_id: z.string().min(1),
  parameters: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().default(''),
  session_id: z.uuid().optional(),
  target_id: z.uuid().nullable().optional(),
});
export type AssistantRequest = z.infer<typeof AssistantRequestSchema>;

/** Assistant request statuses (SPEC "Assistant request", response status). */
export const AssistantStatusSchema = z.enum(['accepted', 'completed', 'failed']);
export type AssistantStatus = z.infer<typeof AssistantStatusSchema>;

/** Assistant answer `{status, request_id, result, errors}` (SPEC "Assistant request"); result is action-specific. */
export const AssistantResponseSchema = z.object({
  status: AssistantStatusSchema,
  request_id: z.string(),
  result: z.unknown(),
  errors: z.array(z.string()),
});
export type AssistantResponse = z.infer<typeof AssistantResponseSchema>;
