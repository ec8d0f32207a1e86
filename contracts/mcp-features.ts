import { z } from 'zod';
import { TextContentSchema } from './tools.ts';

// MCP server features beyond tools (revision 2025-11-25, "Server features": resources, prompts, completion): the wire
// shapes the tool server answers and the params it accepts. Field names are MCP's (camelCase).

/** A `resources/list` entry: uri and name required. */
export const McpResourceSchema = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export type McpResource = z.infer<typeof McpResourceSchema>;

/** A `resources/templates/list` entry: an RFC 6570 level-1 template (`{var}` stands for one path segment here). */
export const McpResourceTemplateSchema = z.object({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export type McpResourceTemplate = z.infer<typeof McpResourceTemplateSchema>;

/** One item of `resources/read` contents: text as `text`, binary as base64 `blob`. */
export const McpResourceContentsSchema = z.union([
  z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
  z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
]);
export type McpResourceContents = z.infer<typeof McpResourceContentsSchema>;

/** An argument a prompt takes (all prompt arguments are strings). */
export const McpPromptArgumentSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
export type McpPromptArgument = z.infer<typeof McpPromptArgumentSchema>;

/** A `prompts/list` entry. */
export const McpPromptSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(McpPromptArgumentSchema).optional(),
});
export type McpPrompt = z.infer<typeof McpPromptSchema>;

/** One message of a `prompts/get` result: text, an image (base64) or an embedded resource. */
export const McpPromptMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.discriminatedUnion('type', [
    TextContentSchema,
    z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
    z.object({ type: z.literal('resource'), resource: McpResourceContentsSchema }),
  ]),
});
export type McpPromptMessage = z.infer<typeof McpPromptMessageSchema>;

/** `prompts/get` result. */
export const McpGetPromptResultSchema = z.object({
  description: z.string().optional(),
  messages: z.array(McpPromptMessageSchema),
});
export type McpGetPromptResult = z.infer<typeof McpGetPromptResultSchema>;

/** Params of the paged listings (`resources/list`, `resources/templates/list`, `prompts/list`). */
export const McpCursorParamsSchema = z.looseObject({ cursor: z.string().max(2000).optional() });

/** Params of `resources/read`, `resources/subscribe`, `resources/unsubscribe`. */
export const McpUriParamsSchema = z.looseObject({ uri: z.string().min(1).max(2000) });

/** Params of `prompts/get`: argument values are strings. */
export const McpGetPromptParamsSchema = z.looseObject({
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.string().max(20_000)).default({}),
});

/** Params of `completion/complete`: what is being completed, the partial value, and the arguments already chosen. */
export const McpCompleteParamsSchema = z.looseObject({
  ref: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('ref/prompt'), name: z.string().min(1).max(200) }),
    z.looseObject({ type: z.literal('ref/resource'), uri: z.string().min(1).max(2000) }),
  ]),
  argument: z.object({ name: z.string().min(1).max(200), value: z.string().max(2000) }),
  context: z.looseObject({ arguments: z.record(z.string(), z.string().max(2000)).optional() }).optional(),
});
export type McpCompleteParams = z.infer<typeof McpCompleteParamsSchema>;

/** The most values one `completion/complete` answer carries (MCP: at most 100). */
export const MAX_COMPLETION_VALUES = 100;

/** `completion/complete` result's `completion`. */
export const McpCompletionSchema = z.object({
  values: z.array(z.string()).max(MAX_COMPLETION_VALUES),
  total: z.number().int().min(0),
  hasMore: z.boolean(),
});
export type McpCompletion = z.infer<typeof McpCompletionSchema>;
