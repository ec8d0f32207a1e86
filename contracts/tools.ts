import { z } from 'zod';
import { ApprovalRouteSchema, HeldCallOutcomeSchema } from './approvals.ts';

/** Canonical tool id `<adapter_id>.<method_name>` (SPEC "Tool manifest", "Versioning" 6). */
export const ToolIdSchema = z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_]+$/, {
  message: 'expected <adapter_id>.<method_name>',
});
export type ToolId = z.infer<typeof ToolIdSchema>;

/**
 * Legacy `tool/call` params (SPEC "Tool call request"). tool_id is not checked for the canonical form here:
 * separator aliases such as `twin_get_node` still resolve.
 */
export const ToolCallRequestSchema = z.object({
  tool_id: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
  timeout_seconds: z.number().int().min(1).max(3600).default(120),
  trace_id: z.string().nullable().optional(),
});
export type ToolCallRequest = z.infer<typeof ToolCallRequestSchema>;

/** Legacy `tool/call` success result (SPEC "Tool call result (legacy)"). */
export const ToolCallResultSchema = z.object({
  tool_id: z.string(),
  status: z.enum(['success', 'error']),
  data: z.record(z.string(), z.unknown()),
  duration_ms: z.number().min(0),
  output_files: z.array(z.string()),
});
export type ToolCallResult = z.infer<typeof ToolCallResultSchema>;

/** Resource limits of an adapter (SPEC "Resource limits"; defaults 1024 MB, 300 CPU s, 256 MB disk). */
export const ResourceLimitsSchema = z.object({
  max_memory_mb: z.number().int().positive().default(1024),
  max_cpu_seconds: z.number().int().positive().default(300),
  max_disk_mb: z.number().int().positive().default(256),
});
export type ResourceLimits = z.infer<typeof ResourceLimitsSchema>;

/** Tool manifest (SPEC "Tool manifest"); phase is the minimum design-flow phase (default 1); limits default too. */
export const ToolManifestSchema = z.object({
  tool_id: ToolIdSchema,
  adapter_id: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  capability: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  output_schema: z.record(z.string(), z.unknown()).nullable().optional(),
  phase: z.number().int().min(1).default(1),
  resource_limits: ResourceLimitsSchema.prefault({}),
});
export type ToolManifest = z.infer<typeof ToolManifestSchema>;

/** Progress of a long tool, also the `tool/result` notification params (SPEC "Tool progress"; progress 0.0 to 1.0). */
export const ToolProgressSchema = z.object({
  request_id: z.string(),
  progress: z.number().min(0).max(1),
  message: z.string(),
});
export type ToolProgress = z.infer<typeof ToolProgressSchema>;

/** Health statuses of an adapter (SPEC "Adapter health"). */
export const AdapterHealthStatusSchema = z.enum(['healthy', 'degraded', 'unhealthy']);
export type AdapterHealthStatus = z.infer<typeof AdapterHealthStatusSchema>;

/** Adapter health report (SPEC "Adapter health"). */
export const AdapterHealthSchema = z.object({
  adapter_id: z.string(),
  status: AdapterHealthStatusSchema,
  version: z.string(),
  tools_available: z.number().int().min(0),
  uptime_seconds: z.number().min(0),
  last_invocation: z.iso.datetime({ offset: true }).nullable(),
});
export type AdapterHealth = z.infer<typeof AdapterHealthSchema>;

/** Adapter configuration (SPEC "Adapter configuration"; defaults stdio, localhost, 8080, /workspace, 30 s). */
export const AdapterConfigSchema = z.object({
  adapter_id: z.string().min(1),
  image: z.string().min(1),
  transport: z.enum(['stdio', 'http']).default('stdio'),
  host: z.string().min(1).default('localhost'),
  port: z.number().int().min(1).max(65535).default(8080),
  workspace_mount: z.string().min(1).default('/workspace'),
  resource_limits: ResourceLimitsSchema.prefault({}),
  environment: z.record(z.string(), z.string()).optional(),
  health_interval_seconds: z.number().int().positive().default(30),
});
export type AdapterConfig = z.infer<typeof AdapterConfigSchema>;

/**
 * Tool annotations on every listed tool (SPEC "Tool annotations"). An unclassified tool inherits readOnlyHint false and
 * destructiveHint true (spec); the spec states no default for the other two, so the MCP spec's (false, true) apply.
 */
export const ToolAnnotationsSchema = z.object({
  readOnlyHint: z.boolean().default(false),
  destructiveHint: z.boolean().default(true),
  idempotentHint: z.boolean().default(false),
  openWorldHint: z.boolean().default(true),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** Text content item of an MCP tool result (SPEC "tools/call": `content: [{type: 'text', text}]`). */
export const TextContentSchema = z.object({ type: z.literal('text'), text: z.string() });
export type TextContent = z.infer<typeof TextContentSchema>;

/** A content item of an MCP tool result: text, or another MCP content type kept as is. */
export const ToolContentSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  z.looseObject({ type: z.enum(['image', 'audio', 'resource', 'resource_link']) }),
]);
export type ToolContent = z.infer<typeof ToolContentSchema>;

/** Failure details of a tool that ran and refused, in `_meta.error` (SPEC "tools/call"). */
export const ToolErrorMetaSchema = z.object({
  toolId: z.string(),
  details: z.union([z.string(), z.record(z.string(), z.unknown())]),
  durationMs: z.number().min(0),
});
export type ToolErrorMeta = z.infer<typeof ToolErrorMetaSchema>;

/** MCP `tools/call` result (SPEC "tools/call"): a refusing tool is `isError: true` with `_meta {callId, error}`. */
export const McpToolCallResultSchema = z.object({
  content: z.array(ToolContentSchema),
  isError: z.boolean().optional(),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  _meta: z
    .looseObject({
      callId: z.string().optional(),
      error: ToolErrorMetaSchema.optional(),
    })
    .optional(),
});
export type McpToolCallResult = z.infer<typeof McpToolCallResultSchema>;

/** JSON-RPC error data of an unapproved held call, code -32001 (SPEC "Errors", "Unapproved held call"). */
export const HeldCallErrorDataSchema = z.object({
  tool_id: z.string(),
  code: z.literal('approval_required'),
  outcome: HeldCallOutcomeSchema,
  retryable: z.literal(false),
  approval_id: z.string().optional(),
  route: ApprovalRouteSchema.optional(),
  where: z.string().optional(),
  held_seconds: z.number().min(0).optional(),
  window_seconds: z.number().min(0).optional(),
});
export type HeldCallErrorData = z.infer<typeof HeldCallErrorDataSchema>;

/** JSON-RPC error data of an unknown tool, code -32601 (SPEC "Errors", "Unknown tool"). */
export const UnknownToolErrorDataSchema = z.object({
  tool_id: z.string(),
  did_you_mean: z.array(z.string()),
  tool_count: z.number().int().min(0),
});
export type UnknownToolErrorData = z.infer<typeof UnknownToolErrorDataSchema>;

/** error_type values of a legacy error (SPEC "Errors": execution error, timeout, adapter unavailable). */
export const LegacyErrorTypeSchema = z.enum(['TOOL_EXECUTION_ERROR', 'TOOL_TIMEOUT', 'TOOL_UNAVAILABLE']);
export type LegacyErrorType = z.infer<typeof LegacyErrorTypeSchema>;

/** JSON-RPC error data of a legacy `tool/call` error (SPEC "Errors"); the failure reason lives in details. */
export const LegacyErrorDataSchema = z.object({
  error_type: LegacyErrorTypeSchema,
  tool_id: z.string(),
  details: z.union([z.string(), z.record(z.string(), z.unknown())]),
  duration_ms: z.number().min(0),
});
export type LegacyErrorData = z.infer<typeof LegacyErrorDataSchema>;

/**
 * JSON-RPC request id. The spec writes `id: string`; integers are accepted too because JSON-RPC 2.0 allows them and
 * the MCP SDK client sends them.
 */
export const JsonRpcIdSchema = z.union([z.string(), z.number().int()]);
export type JsonRpcId = z.infer<typeof JsonRpcIdSchema>;

/** JSON-RPC request envelope `{jsonrpc: '2.0', id, method, params}` (SPEC "JSON-RPC methods"). */
export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcIdSchema,
  method: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

/** JSON-RPC notification: the envelope without id, answered with 204 (SPEC "Tool server wire endpoints"). */
export const JsonRpcNotificationSchema = JsonRpcRequestSchema.omit({ id: true });
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;
