import type { ProviderFamily } from '../../../contracts/harness.ts';
import type { ProviderConfig } from '../../../actors/harness/calls/index.ts';
import { startAnthropicServer } from './anthropic.ts';
import { startOpenAIServer } from './openai.ts';
import type { WireServer } from './wire-server.ts';

/** Both provider families, each with its local wire server and its own stop words, for one suite over both. */
export interface FamilyCase {
  family: ProviderFamily;
  model: string;
  start(opts: { apiKey?: string }): Promise<WireServer>;
  stop: { end: string; tool: string; max: string; other: string };
}

export const FAMILY_CASES: FamilyCase[] = [
  {
    family: 'openai_compatible',
    model: 'llama3.1:8b',
    start: startOpenAIServer,
    stop: { end: 'stop', tool: 'tool_calls', max: 'length', other: 'content_filter' },
  },
  {
    family: 'anthropic',
    model: 'claude-sonnet-5-5',
    start: startAnthropicServer,
    stop: { end: 'end_turn', tool: 'tool_use', max: 'max_tokens', other: 'refusal' },
  },
];

export const KEY = 'sk-local-test';

export const provider = (c: FamilyCase, server: WireServer, extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
  family: c.family,
  baseURL: server.url,
  apiKey: KEY,
  ...extra,
});

export const WEATHER = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

export const ASK = [
  { role: 'system' as const, content: 'You answer briefly.' },
  { role: 'user' as const, content: 'What is the weather in Oslo?' },
];
