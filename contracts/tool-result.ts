import { z } from 'zod';
import { ApprovalRouteSchema, HeldCallOutcomeSchema } from './approvals.ts';
import { ValidationIssueSchema, type ValidationIssue } from './errors.ts';

/**
 * The one result of a tool call, from the adapter kit to the wire: `adapters.<id>.invoke` answers it, the registry
 * (`tools.call`) passes it through or answers one itself (unknown tool, bad arguments, adapter off the bus, a held or
 * refused call), and the gateway renders it into the MCP or the legacy dialect in one place
 * (gateway/mcp/methods/tool-results.ts). Nothing between builds another shape.
 */

/** Free-form details of a failure: a string or an object (SPEC "Errors": the reason lives in details). */
export const ToolErrorDetailsSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);

/** Details of a call held for a person and not approved (SPEC "Unapproved held call"). */
export const HeldDetailsSchema = z.object({
  outcome: HeldCallOutcomeSchema,
  approval_id: z.string().optional(),
  route: ApprovalRouteSchema.optional(),
  where: z.string().optional(),
  held_seconds: z.number().optional(),
  window_seconds: z.number().optional(),
});
export type HeldDetails = z.infer<typeof HeldDetailsSchema>;

/**
 * Why a call failed. The tool ran and failed (TOOL_EXECUTION_ERROR), ran out of time, was cancelled, or its engine or
 * adapter is missing (TOOL_UNAVAILABLE); or it never ran: unknown tool, arguments refused, held and not approved, or
 * refused by the hold policy. The details of the last four have a fixed shape.
 */
export const ToolCallErrorSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['TOOL_EXECUTION_ERROR', 'TOOL_TIMEOUT', 'CANCELLED', 'TOOL_UNAVAILABLE']),
    message: z.string(),
    details: ToolErrorDetailsSchema,
  }),
  z.object({
    type: z.literal('INVALID_ARGUMENTS'),
    message: z.string(),
    details: z.object({ validation_errors: z.array(ValidationIssueSchema) }),
  }),
  z.object({
    type: z.literal('TOOL_NOT_FOUND'),
    message: z.string(),
    details: z.object({
      did_you_mean: z.array(z.string()),
      tool_count: z.number().int(),
      ambiguous: z.array(z.string()).optional(),
    }),
  }),
  z.object({ type: z.literal('APPROVAL_REQUIRED'), message: z.string(), details: HeldDetailsSchema }),
  z.object({ type: z.literal('REFUSED'), message: z.string(), details: z.string() }),
]);
export type ToolCallError = z.infer<typeof ToolCallErrorSchema>;
export type ToolErrorType = ToolCallError['type'];

export const ToolResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('success'),
    tool_id: z.string(),
    data: z.record(z.string(), z.unknown()),
    /** Paths (workspace-relative) of files the tool wrote. */
    output_files: z.array(z.string()),
    duration_ms: z.number().min(0),
  }),
  z.object({
    status: z.literal('error'),
    tool_id: z.string(),
    error: ToolCallErrorSchema,
    duration_ms: z.number().min(0),
  }),
]);
export type ToolResult = z.infer<typeof ToolResultSchema>;
export type ToolSuccess = Extract<ToolResult, { status: 'success' }>;
export type ToolFailed = Extract<ToolResult, { status: 'error' }>;

/** A failed call of `toolId` after `durationMs`. */
export function toolFailed(toolId: string, error: ToolCallError, durationMs = 0): ToolFailed {
  return { status: 'error', tool_id: toolId, error, duration_ms: durationMs };
}

/** Arguments refused (by the registry's JSON Schema check, or by an adapter's own rule): the message lists the issues. */
export function invalidArguments(toolId: string, issues: ValidationIssue[], durationMs = 0): ToolFailed {
  const listed = issues.map((v) => `${v.path} ${v.message}`).join('; ');
  return toolFailed(
    toolId,
    {
      type: 'INVALID_ARGUMENTS',
      message: `Invalid arguments for ${toolId}: ${listed}`,
      details: { validation_errors: issues },
    },
    durationMs,
  );
}

/** An unknown tool (SPEC "Unknown tool"): the message names close matches, or the tools an ambiguous alias matches. */
export function toolNotFound(
  toolId: string,
  didYouMean: string[],
  toolCount: number,
  ambiguous?: string[],
): ToolFailed {
  const suffix = ambiguous
    ? `; the alias matches several tools: ${ambiguous.join(', ')}`
    : didYouMean.length
      ? `; did you mean ${didYouMean.join(', ')}?`
      : '';
  return toolFailed(toolId, {
    type: 'TOOL_NOT_FOUND',
    message: `Tool not found: ${toolId}${suffix}`,
    details: { did_you_mean: didYouMean, tool_count: toolCount, ...(ambiguous ? { ambiguous } : {}) },
  });
}
