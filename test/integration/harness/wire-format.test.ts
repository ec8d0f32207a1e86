import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complete } from '../../../actors/harness/calls/index.ts';
import type { ChatMessage } from '../../../contracts/harness-calls.ts';
import { startAnthropicServer } from '../../support/llm-servers/anthropic.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { WEATHER } from '../../support/llm-servers/families.ts';

/** A conversation with one tool round trip, as the harness holds it (family-neutral). */
const ROUND_TRIP: ChatMessage[] = [
  { role: 'system', content: 'Use tools.' },
  { role: 'user', content: 'Weather in Oslo and Bergen?' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } },
      { id: 'call_2', name: 'get_weather', arguments: { city: 'Bergen' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
  { role: 'tool', tool_call_id: 'call_2', content: 'station offline', is_error: true },
];

describe('the request on the OpenAI chat-completions wire', () => {
  let server: WireServer;
  beforeAll(async () => {
    server = await startOpenAIServer({ apiKey: 'k' });
  });
  afterAll(() => server.close());

  it('carries tools as function tools, the round trip as tool_calls and tool messages, usage asked for', async () => {
    server.enqueue({ text: ['Done.'] });
    await complete({
      provider: { family: 'openai_compatible', baseURL: server.url, apiKey: 'k' },
      model: 'llama3.1:8b',
      messages: ROUND_TRIP,
      tools: [WEATHER],
      maxTokens: 256,
      temperature: 0.2,
    });
    const req = server.last!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer k');
    expect(req.body).toEqual({
      model: 'llama3.1:8b',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 256,
      temperature: 0.2,
      tools: [
        {
          type: 'function',
          function: { name: WEATHER.name, description: WEATHER.description, parameters: WEATHER.input_schema },
        },
      ],
      messages: [
        { role: 'system', content: 'Use tools.' },
        { role: 'user', content: 'Weather in Oslo and Bergen?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bergen"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'station offline' },
      ],
    });
  });

  it('sends no tools field when none are offered', async () => {
    server.enqueue({ text: ['hi'] });
    await complete({
      provider: { family: 'openai_compatible', baseURL: server.url, apiKey: 'k' },
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(server.last!.body).not.toHaveProperty('tools');
  });
});

describe('the request on the Anthropic messages wire', () => {
  let server: WireServer;
  beforeAll(async () => {
    server = await startAnthropicServer({ apiKey: 'k' });
  });
  afterAll(() => server.close());

  it('carries tools with input_schema, the system prompt apart, tool_use blocks and one user turn of tool_result blocks', async () => {
    server.enqueue({ text: ['Done.'] });
    await complete({
      provider: { family: 'anthropic', baseURL: server.url, apiKey: 'k' },
      model: 'claude-sonnet-5-5',
      messages: ROUND_TRIP,
      tools: [WEATHER],
      maxTokens: 256,
    });
    const req = server.last!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['anthropic-version']).toBeTruthy();
    expect(req.body).toEqual({
      model: 'claude-sonnet-5-5',
      stream: true,
      max_tokens: 256,
      system: 'Use tools.',
      tools: [{ name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.input_schema }],
      messages: [
        { role: 'user', content: 'Weather in Oslo and Bergen?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
            { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Bergen' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '{"sky":"clear"}' },
            { type: 'tool_result', tool_use_id: 'call_2', content: 'station offline', is_error: true },
          ],
        },
      ],
    });
  });
});
