import type { Context } from 'moleculer';
import { z } from 'zod';
import { TOOL_CONTENT_KEY, type Caller } from '../../../contracts/actions/adapters.actions.ts';
import type { ValidationIssue } from '../../../contracts/errors.ts';
import type { ToolAnnotations, ToolContent } from '../../../contracts/tools.ts';
import type { Logger } from '../../../brokers/logger.ts';

/** What a tool handler gets besides its arguments. */
export interface ToolContext {
  callId: string;
  caller: Caller;
  /** Aborted when the call times out or the client cancels it; long work must stop when it fires. */
  signal: AbortSignal;
  /** Reports progress (0..1) to the caller's stream; never throws, never blocks the tool (its result waits, up to 1 s, until the reports arrived). */
  progress(fraction: number, message: string): void;
  /** Sends a notification (e.g. `notifications/message`) to the caller's stream; resolves whether it was delivered. */
  notify(method: string, params: Record<string, unknown>): Promise<boolean>;
  /** Asks the client something (elicitation, sampling) on the call's own stream and resolves with its answer. */
  request(
    method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list',
    params: Record<string, unknown>,
  ): Promise<unknown>;
  log: Logger;
  /** The Moleculer context of the invoke, to call other actors (STYLE R11). */
  ctx: Context;
  /** Paths (workspace-relative) of files the tool wrote, reported as output_files. */
  outputFiles: string[];
}

/** One tool of an adapter: its contract (zod input, optional output) and its handler. */
export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title?: string;
  description: string;
  input: I;
  output?: O;
  /** MCP annotations of a tool the catalogue does not classify (the catalogue always wins; unset = unclassified, held). */
  annotations?: ToolAnnotations;
  handler(args: z.output<I>, tc: ToolContext): Promise<z.output<O> & Record<string, unknown>>;
}

/** Declares a tool with its types inferred from the schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType = z.ZodType<Record<string, unknown>>>(
  def: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return def;
}

/** Data whose MCP result `content` is exactly these blocks (TOOL_CONTENT_KEY); `data`, if given, is the structuredContent. */
export function withContent(
  content: [ToolContent, ...ToolContent[]],
  data: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...data, [TOOL_CONTENT_KEY]: content };
}

/**
 * The tool ran and refused or failed. The kit turns it into the call's error result (TOOL_EXECUTION_ERROR; the two
 * subclasses below give TOOL_UNAVAILABLE and INVALID_ARGUMENTS), which the gateway renders in the caller's dialect.
 */
export class ToolError extends Error {
  override name = 'ToolError';
  readonly details: string | Record<string, unknown>;
  constructor(message: string, details?: string | Record<string, unknown>) {
    super(message);
    this.details = details ?? message;
  }
}

/** The engine behind a tool is missing or unusable: TOOL_UNAVAILABLE, naming what is missing. */
export class ToolUnavailableError extends ToolError {
  override name = 'ToolUnavailableError';
}

/** Arguments passed the registry's JSON Schema check but not the adapter's own rules (e.g. a path outside the workspace). */
export class InvalidArgumentsError extends ToolError {
  override name = 'InvalidArgumentsError';

  /** The refusal as validation issues: those in details, or the message against the arguments as a whole. */
  issues(): ValidationIssue[] {
    const listed = typeof this.details === 'object' ? this.details.validation_errors : undefined;
    return Array.isArray(listed) ? (listed as ValidationIssue[]) : [{ path: '(arguments)', message: this.message }];
  }
}

/** JSON Schema of a tool's input, generated from zod (never hand-written). Object schemas only, per MCP. */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  if (js.type !== 'object') throw new Error('tool input schemas must be objects');
  return js;
}

export function outputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}
