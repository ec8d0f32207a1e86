import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complete } from '../../../actors/harness/calls/index.ts';
import { ASK, FAMILY_CASES, KEY, provider, WEATHER } from '../../support/llm-servers/families.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';

/** Both families, through their official SDKs, against local servers speaking each provider's wire protocol. */
describe.each(FAMILY_CASES)('$family family: replies', (c) => {
  let server: WireServer;
  beforeAll(async () => {
    server = await c.start({ apiKey: KEY });
  });
  afterAll(() => server.close());

  it('streams text deltas to onText in order and reports usage with cached input tokens', async () => {
    server.enqueue({
      text: ['The ', 'sky ', 'is ', 'clear.'],
      usage: { prompt_tokens: 1200, completion_tokens: 9, cached_tokens: 1024 },
    });
    const deltas: string[] = [];
    const out = await complete({
      provider: provider(c, server),
      model: c.model,
      messages: ASK,
      onText: (d) => deltas.push(d),
    });
    expect(deltas).toEqual(['The ', 'sky ', 'is ', 'clear.']);
    expect(out).toEqual({
      text: 'The sky is clear.',
      tool_calls: [],
      stop_reason: 'end_turn',
      usage: { prompt_tokens: 1200, completion_tokens: 9, cached_input_tokens: 1024, usage_reported: true },
      model: c.model,
    });
  });

  it('assembles tool calls from streamed fragments, in the model order, with parsed arguments', async () => {
    server.enqueue({
      text: ['Checking.'],
      toolCalls: [
        { id: 'call_a', name: 'get_weather', args: ['{"ci', 'ty": "Os', 'lo"}'] },
        { id: 'call_b', name: 'get_weather', args: ['{"city"', ':"Bergen"}'] },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 30 },
    });
    const out = await complete({ provider: provider(c, server), model: c.model, messages: ASK, tools: [WEATHER] });
    expect(out.stop_reason).toBe('tool_use');
    expect(out.text).toBe('Checking.');
    expect(out.tool_calls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' } },
      { id: 'call_b', name: 'get_weather', arguments: { city: 'Bergen' } },
    ]);
    expect(out.usage.cached_input_tokens).toBe(0);
  });

  it('normalises the max-tokens stop and an unknown stop word', async () => {
    server.enqueue({ text: ['cut'], stop: c.stop.max }, { text: ['no'], stop: c.stop.other });
    const a = await complete({ provider: provider(c, server), model: c.model, messages: ASK });
    const b = await complete({ provider: provider(c, server), model: c.model, messages: ASK });
    expect([a.stop_reason, b.stop_reason]).toEqual(['max_tokens', 'other']);
  });

  it('answers the same without streaming (no deltas)', async () => {
    server.enqueue({
      text: ['Sunny.'],
      toolCalls: [{ id: 'call_c', name: 'get_weather', args: ['{"city":"Oslo"}'] }],
      usage: { prompt_tokens: 300, completion_tokens: 12, cached_tokens: 256 },
    });
    const deltas: string[] = [];
    const out = await complete({
      provider: provider(c, server),
      model: c.model,
      messages: ASK,
      tools: [WEATHER],
      stream: false,
      onText: (d) => deltas.push(d),
    });
    expect(deltas).toEqual([]);
    expect(server.last?.body.stream).not.toBe(true);
    expect(out).toMatchObject({
      text: 'Sunny.',
      tool_calls: [{ id: 'call_c', name: 'get_weather', arguments: { city: 'Oslo' } }],
      stop_reason: 'tool_use',
      usage: { prompt_tokens: 300, completion_tokens: 12, cached_input_tokens: 256, usage_reported: true },
    });
  });

  it('sends the SDK request with retries off', async () => {
    server.enqueue({ text: ['ok'] });
    await complete({ provider: provider(c, server), model: c.model, messages: ASK });
    expect(server.last?.headers['x-stainless-retry-count']).toBe('0');
  });
});

describe('openai_compatible family: usage', () => {
  it('counts a call whose server reports no usage as usage_reported=false', async () => {
    const server = await FAMILY_CASES[0]!.start({});
    try {
      server.enqueue({ text: ['hi'] });
      const out = await complete({
        provider: { family: 'openai_compatible', baseURL: server.url },
        model: 'm',
        messages: ASK,
      });
      expect(out.usage).toEqual({
        prompt_tokens: 0,
        completion_tokens: 0,
        cached_input_tokens: 0,
        usage_reported: false,
      });
      // A keyless local endpoint: no Authorization header at all.
      expect(server.last?.headers.authorization).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
