import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callModel } from '../../../actors/harness/calls/index.ts';
import type { LlmCallRecord } from '../../../contracts/harness.ts';
import { LlmCallRecordSchema } from '../../../contracts/harness.ts';
import { startAnthropicServer } from '../../support/llm-servers/anthropic.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';

const AT = new Date('2026-11-25T12:00:00.000Z');

/** callModel: every call, ok or failed, leaves one LlmCallRecord with the tokens the provider reported. */
describe('callModel', () => {
  let server: WireServer;
  beforeAll(async () => {
    server = await startAnthropicServer({ apiKey: 'k' });
  });
  afterAll(() => server.close());

  const req = () => ({
    provider: { family: 'anthropic' as const, baseURL: server.url, apiKey: 'k' },
    model: 'claude-haiku-5-5',
    messages: [{ role: 'user' as const, content: 'Summarise.' }],
  });
  const meta = { provider: 'anthropic', role: 'summarisation', phase: 'design', run_id: 'r1', project_id: null };

  it('records a successful call with its tokens', async () => {
    const records: LlmCallRecord[] = [];
    server.enqueue({ text: ['Short.'], usage: { prompt_tokens: 900, completion_tokens: 4, cached_tokens: 800 } });
    const out = await callModel(req(), meta, {
      record: (r) => void records.push(r),
      now: () => AT,
      newId: () => 'call-1',
    });
    expect(out.ok).toBe(true);
    expect(records).toHaveLength(1);
    expect(LlmCallRecordSchema.parse(records[0])).toMatchObject({
      id: 'call-1',
      at: AT.toISOString(),
      provider: 'anthropic',
      model: 'claude-haiku-5-5',
      role: 'summarisation',
      phase: 'design',
      run_id: 'r1',
      prompt_tokens: 900,
      completion_tokens: 4,
      cached_input_tokens: 800,
      usage_reported: true,
      outcome: 'ok',
      failure_class: null,
      cost_usd: null,
    });
  });

  it('records a failed call with the usage reported before the fault (message_start counted the prompt)', async () => {
    const records: LlmCallRecord[] = [];
    server.enqueue({
      text: ['Half'],
      fault: 'truncate',
      usage: { prompt_tokens: 500, completion_tokens: 0, cached_tokens: 0 },
    });
    const out = await callModel(req(), meta, { record: (r) => void records.push(r), now: () => AT });
    expect(out).toMatchObject({ ok: false, error: { failure: { class: 'data' } } });
    expect(records[0]).toMatchObject({
      outcome: 'failed',
      failure_class: 'data',
      prompt_tokens: 500,
      usage_reported: true,
    });
  });

  it('records a refused call with no usage, and a failing recorder never fails the call', async () => {
    const seen: string[] = [];
    server.enqueue({ fault: { status: 500 } });
    const out = await callModel(req(), meta, {
      record: () => Promise.reject(new Error('ledger down')),
      now: () => AT,
      onRecordError: (err, rec) => seen.push(`${(err as Error).message}:${rec.outcome}:${rec.usage_reported}`),
    });
    expect(out).toMatchObject({ ok: false, error: { failure: { class: 'transient', status: 500 } } });
    expect(seen).toEqual(['ledger down:failed:false']);
  });
});
