import type { FailureClass } from '../../../contracts/harness.ts';
import type { ValidationIssue } from '../../../contracts/errors.ts';
import type { ToolFailed, ToolResult } from '../../../contracts/tool-result.ts';

/**
 * What the model reads back for one tool call (SPEC "Chat and harness rules" 1, 3, 4): JSON, success or a structured
 * failure. A failure carries the adapter's own status (`error` is its error type, lower-cased), message and hint
 * (the adapter's `details.hint` when it gave one, else one derived from the type), and `failure_class` in the
 * harness's taxonomy: `tool` for a tool that ran or was refused, `reasoning` when the model asked for something the
 * offer did not allow (an unknown name, invalid arguments).
 */
export type ToolEnvelope =
  | { status: 'success'; tool: string; data: Record<string, unknown>; output_files: string[]; cached?: true }
  | {
      status: 'error';
      tool: string;
      error: string;
      failure_class: FailureClass;
      message: string;
      hint: string;
      validation_errors?: ValidationIssue[];
      details?: unknown;
    };
export type ToolErrorEnvelope = Extract<ToolEnvelope, { status: 'error' }>;

const HINTS: Record<ToolFailed['error']['type'], string> = {
  TOOL_EXECUTION_ERROR: 'the tool ran and failed: read the message, change the arguments or the approach, then retry',
  TOOL_TIMEOUT: 'the tool ran out of time: try a smaller job or a longer timeout',
  CANCELLED: 'the call was cancelled before it finished; call it again only if it is still needed',
  TOOL_UNAVAILABLE: 'the tool or its engine is unavailable now: use another tool or tell the person',
  INVALID_ARGUMENTS: "fix the listed fields to match the tool's input_schema and call it again",
  TOOL_NOT_FOUND: 'call one of the tools offered in this request',
  APPROVAL_REQUIRED: 'a person did not approve this call: do not repeat it unchanged; ask the person how to go on',
  REFUSED: 'this caller may not run this tool: choose another way or ask the person',
};

/** Rule 1: the arguments do not match the tool's input_schema; the tool did not run. */
export function invalidArgumentsEnvelope(tool: string, issues: ValidationIssue[]): ToolErrorEnvelope {
  return {
    status: 'error',
    tool,
    error: 'invalid_arguments',
    failure_class: 'reasoning',
    message: `invalid arguments for ${tool}: ${issues.map((v) => `${v.path} ${v.message}`).join('; ')}`,
    validation_errors: issues,
    hint: HINTS.INVALID_ARGUMENTS,
  };
}

/** A name the request did not offer: the model reasoned outside its tools; nothing ran. */
export function unknownToolEnvelope(name: string, offered: readonly string[]): ToolErrorEnvelope {
  const close = offered.filter((n) => n.includes(name) || name.includes(n)).slice(0, 5);
  return {
    status: 'error',
    tool: name,
    error: 'unknown_tool',
    failure_class: 'reasoning',
    message: `the model called ${name || '(unnamed)'}, a tool this request did not offer`,
    hint: close.length ? `${HINTS.TOOL_NOT_FOUND}; did you mean ${close.join(', ')}?` : HINTS.TOOL_NOT_FOUND,
  };
}

/** The registry's (and through it the adapter's) answer, as the model reads it. */
export function envelopeOf(tool: string, r: ToolResult): ToolEnvelope {
  if (r.status === 'success') return { status: 'success', tool, data: r.data, output_files: r.output_files };
  const e = r.error;
  if (e.type === 'INVALID_ARGUMENTS') return invalidArgumentsEnvelope(tool, e.details.validation_errors);
  const own = typeof e.details === 'object' && e.details !== null ? (e.details as { hint?: unknown }).hint : undefined;
  return {
    status: 'error',
    tool,
    error: e.type.toLowerCase(),
    failure_class: e.type === 'TOOL_NOT_FOUND' ? 'reasoning' : 'tool',
    message: e.message,
    hint: typeof own === 'string' && own ? own : HINTS[e.type],
    details: e.details,
  };
}

/** A call that got no answer (the registry not reachable, a bus timeout, no runner): isolated to this call. */
export function busFailureEnvelope(tool: string, err: unknown): ToolErrorEnvelope {
  return {
    status: 'error',
    tool,
    error: 'tool_unavailable',
    failure_class: 'tool',
    message: `${tool} could not be run: ${err instanceof Error ? err.message : String(err)}`,
    hint: HINTS.TOOL_UNAVAILABLE,
  };
}
