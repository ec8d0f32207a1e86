import { z } from 'zod';
import { defineAction } from '../define.ts';
import { RollupAdapterSchema } from '../health.ts';
import { ToolResultSchema } from '../tool-result.ts';
import { AnnouncedToolSchema, CallerSchema, ToolArgumentsSchema } from './adapters.actions.ts';

/** `tools.list`: the registry's listing for one request (profile and capability filter). */
export const ToolListParamsSchema = z.object({ profile: z.string().optional(), capability: z.string().optional() });
export const ToolListResultSchema = z.object({
  tools: z.array(AnnouncedToolSchema),
  unavailable_adapters: z.array(z.string()),
  profile_missing: z.array(z.string()),
});
export type ToolListResult = z.infer<typeof ToolListResultSchema>;

/** `tools.call`: one tool call from any caller; the answer is the one ToolResult (contracts/tool-result.ts) the gateway renders. */
export const ToolCallParamsSchema = z.object({
  name: z.string().min(1),
  /** Opaque here: the registry validates them once against the tool's input_schema (actors/tools/arg-validator.ts). */
  arguments: ToolArgumentsSchema.default({}),
  timeout_seconds: z.number().int().min(1).max(3600).default(120),
  call_id: z.string(),
  caller: CallerSchema,
  progress_node: z.string().optional(),
  /** The call carries `_meta.progressToken`: a hold then gets the longer window and reports progress. */
  has_progress: z.boolean().optional(),
  /** The caller's own approval window for a held call (a chat: SERVICE_CHAT_APPROVAL_TIMEOUT_SECONDS); denied after it. */
  hold_seconds: z.number().int().min(1).max(86_400).optional(),
});
export type ToolCallParams = z.infer<typeof ToolCallParamsSchema>;

export const ToolSearchParamsSchema = z.object({
  query: z.string().min(1),
  limit: z.number().int().min(1).max(50).default(10),
});
export const ToolSearchResultSchema = z.object({
  tools: z.array(
    z.object({
      tool_id: z.string(),
      title: z.string(),
      description: z.string(),
      score: z.number(),
      available: z.boolean(),
    }),
  ),
});

export const AdapterRollupSchema = z.object({
  adapters: z.array(RollupAdapterSchema),
  tool_count: z.number().int(),
});
export type AdapterRollup = z.infer<typeof AdapterRollupSchema>;

/** Bus actions of the `tools` actor (the registry). */
export const ToolsActions = {
  list: defineAction('tools.list', ToolListParamsSchema, ToolListResultSchema),
  call: defineAction('tools.call', ToolCallParamsSchema, ToolResultSchema),
  search: defineAction('tools.search', ToolSearchParamsSchema, ToolSearchResultSchema),
  adapters: defineAction('tools.adapters', z.object({}), AdapterRollupSchema),
} as const;
