import type { McpGetPromptResult, McpPrompt } from '../../../contracts/mcp-features.ts';
import type { Candidate } from '../completion.ts';
import { rpcError } from '../errors.ts';

/**
 * A family of prompts (the service's own, the conformance fixtures). `get` is called only for a listed name with its
 * arguments already checked by `checkArguments`; it throws -32602 itself for a value that names nothing real.
 */
export interface PromptSource {
  readonly prompts: readonly McpPrompt[];
  get(name: string, args: Record<string, string>): Promise<McpGetPromptResult>;
  /** Candidate values of one argument, given the arguments already chosen; absent = free text. */
  complete?(prompt: string, argument: string, context: Record<string, string>): Promise<Candidate[]>;
}

/**
 * The arguments of a `prompts/get` as the prompt declares them: every required one present and not blank, no
 * undeclared one (a typo would otherwise be dropped silently). Blank optional values count as absent.
 * Any problem is -32602 naming the prompt and the argument.
 */
export function checkArguments(prompt: McpPrompt, given: Record<string, string>): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const names = new Set(declared.map((a) => a.name));
  const unknown = Object.keys(given).filter((k) => !names.has(k));
  if (unknown.length)
    throw rpcError(
      'INVALID_PARAMS',
      `prompt ${prompt.name} takes no argument ${unknown.join(', ')}; its arguments: ${[...names].join(', ') || 'none'}`,
      { prompt: prompt.name, unknown, arguments: declared },
    );
  const missing = declared.filter((a) => a.required && !given[a.name]?.trim());
  if (missing.length)
    throw rpcError(
      'INVALID_PARAMS',
      `prompt ${prompt.name} needs ${missing.map((a) => `${a.name} (${a.description ?? 'required'})`).join(', ')}`,
      { prompt: prompt.name, missing: missing.map((a) => a.name), arguments: declared },
    );
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v.trim() !== ''));
}

/** -32602 for an argument value that names nothing the service knows (an unknown run, project, result or flow). */
export const unknownValue = (prompt: string, argument: string, value: string, why: string) =>
  rpcError('INVALID_PARAMS', `prompt ${prompt}: ${argument} ${value} ${why}`, { prompt, argument, value });
