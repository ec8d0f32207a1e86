import type { JSONRPCServer } from 'json-rpc-2.0';
import { McpCursorParamsSchema, McpGetPromptParamsSchema, type McpPrompt } from '../../../contracts/mcp-features.ts';
import type { McpRequestContext } from '../context.ts';
import { rpcError } from '../errors.ts';
import type { McpFeatures } from '../features.ts';
import { checkArguments, type PromptSource } from '../prompts/source.ts';
import { parseParams } from '../params.ts';

/** The prompt of that name and the source that renders it, or -32602 listing the prompts there are. */
export function findPrompt(features: McpFeatures, name: string): { prompt: McpPrompt; source: PromptSource } {
  for (const source of features.prompts) {
    const prompt = source.prompts.find((p) => p.name === name);
    if (prompt) return { prompt, source };
  }
  const available = features.prompts.flatMap((s) => s.prompts.map((p) => p.name));
  throw rpcError('INVALID_PARAMS', `Unknown prompt: ${name}; prompts: ${available.join(', ')}`, {
    prompt: name,
    available,
  });
}

/**
 * `prompts/list` (every prompt in one page) and `prompts/get`: an unknown prompt, a missing required argument or an
 * undeclared one is -32602 with a message naming it; so is a value that names nothing real (an unknown run id).
 */
export function addPromptMethods(server: JSONRPCServer<McpRequestContext>, features: McpFeatures): void {
  server.addMethod('prompts/list', (params) => {
    parseParams(McpCursorParamsSchema, params, 'prompts/list');
    return { prompts: features.prompts.flatMap((s) => s.prompts) };
  });

  server.addMethod('prompts/get', async (params) => {
    const p = parseParams(McpGetPromptParamsSchema, params, 'prompts/get');
    const { prompt, source } = findPrompt(features, p.name);
    return source.get(prompt.name, checkArguments(prompt, p.arguments));
  });
}
