import { describe, expect, it } from 'vitest';
import { complete, type ProviderConfig } from '../../../actors/harness/calls/index.ts';
import type { ChatMessage } from '../../../contracts/harness-calls.ts';
import { WEATHER } from '../../support/llm-servers/families.ts';

const BASE_URL = process.env.SERVICE_TEST_OPENAI_BASE_URL;
const MODEL = process.env.SERVICE_TEST_OPENAI_MODEL ?? 'gpt-4o-mini';

/**
 * Opt-in: the conversation of the local-server tests against a real OpenAI-compatible endpoint (OpenAI, Ollama,
 * vLLM...). Runs only when SERVICE_TEST_OPENAI_BASE_URL is set; SERVICE_TEST_OPENAI_API_KEY and
 * SERVICE_TEST_OPENAI_MODEL when the endpoint needs them. A real model's words vary, so the shapes are checked.
 */
describe.skipIf(!BASE_URL)('a real OpenAI-compatible endpoint', () => {
  const provider: ProviderConfig = {
    family: 'openai_compatible',
    baseURL: BASE_URL,
    apiKey: process.env.SERVICE_TEST_OPENAI_API_KEY || undefined,
    timeoutMs: 60_000,
    idleTimeoutMs: 30_000,
  };

  it('streams a text reply, deltas in order, with its stop reason', async () => {
    const deltas: string[] = [];
    const out = await complete({
      provider,
      model: MODEL,
      messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
      maxTokens: 64,
      onText: (d) => deltas.push(d),
    });
    expect(out.text.length).toBeGreaterThan(0);
    expect(deltas.join('')).toBe(out.text);
    expect(['end_turn', 'max_tokens']).toContain(out.stop_reason);
  }, 90_000);

  it('calls an offered tool with parsed arguments, then answers from its result', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Use the get_weather tool to answer weather questions.' },
      { role: 'user', content: 'What is the weather in Oslo?' },
    ];
    const first = await complete({ provider, model: MODEL, messages, tools: [WEATHER], maxTokens: 256 });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.tool_calls[0]).toMatchObject({ name: 'get_weather', arguments: { city: expect.any(String) } });
    const call = first.tool_calls[0]!;
    const second = await complete({
      provider,
      model: MODEL,
      tools: [WEATHER],
      maxTokens: 256,
      messages: [
        ...messages,
        { role: 'assistant', content: first.text, tool_calls: first.tool_calls },
        { role: 'tool', tool_call_id: call.id, content: '{"sky":"clear","temperature_c":-3}' },
      ],
    });
    expect(second.text.length).toBeGreaterThan(0);
  }, 120_000);
});
