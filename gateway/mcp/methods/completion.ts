import type { JSONRPCServer } from 'json-rpc-2.0';
import { McpCompleteParamsSchema, type McpCompleteParams } from '../../../contracts/mcp-features.ts';
import { NO_COMPLETION, rankCompletions, type Candidate } from '../completion.ts';
import type { McpRequestContext } from '../context.ts';
import { rpcError } from '../errors.ts';
import type { McpFeatures } from '../features.ts';
import { parseParams } from '../params.ts';
import { findPrompt } from './prompts.ts';

/** Candidates for a prompt argument; -32602 for an unknown prompt or an argument it does not declare. */
async function promptCandidates(features: McpFeatures, name: string, argument: string, ctx: Record<string, string>) {
  const { prompt, source } = findPrompt(features, name);
  if (!prompt.arguments?.some((a) => a.name === argument))
    throw rpcError('INVALID_PARAMS', `prompt ${name} has no argument ${argument}`, { prompt: name, argument });
  return (await source.complete?.(name, argument, ctx)) ?? [];
}

/** Candidates for a resource template variable; -32602 for an unknown template or variable. */
async function templateCandidates(features: McpFeatures, uri: string, variable: string, ctx: Record<string, string>) {
  const template = features.resources.flatMap((p) => p.templates).find((t) => t.uriTemplate === uri);
  if (!template)
    throw rpcError('INVALID_PARAMS', `no resource template ${uri}; resources/templates/list names them`, { uri });
  if (!template.uri.variables.includes(variable))
    throw rpcError('INVALID_PARAMS', `template ${uri} has no variable ${variable}`, { uri, variable });
  return (await template.complete?.(variable, ctx)) ?? [];
}

/**
 * `completion/complete` (MCP "Completion"): values for a prompt argument or a resource template variable from real
 * data (project ids, item keys, result and run ids, flow names), matched against what was typed, at most 100, with
 * `total` and `hasMore`. Arguments already chosen (`context.arguments`) narrow the values (a project's item keys).
 */
export function addCompletionMethods(server: JSONRPCServer<McpRequestContext>, features: McpFeatures): void {
  server.addMethod('completion/complete', async (params) => {
    const p: McpCompleteParams = parseParams(McpCompleteParamsSchema, params, 'completion/complete');
    const chosen = p.context?.arguments ?? {};
    const candidates: Candidate[] =
      p.ref.type === 'ref/prompt'
        ? await promptCandidates(features, p.ref.name, p.argument.name, chosen)
        : await templateCandidates(features, p.ref.uri, p.argument.name, chosen);
    return { completion: candidates.length ? rankCompletions(candidates, p.argument.value) : NO_COMPLETION };
  });
}
