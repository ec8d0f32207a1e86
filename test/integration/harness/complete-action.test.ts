import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action, call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import type { Infra } from '../../../brokers/infra.ts';
import { createCallsPart } from '../../../actors/harness/calls/index.ts';
import { createEgressPolicy } from '../../../actors/harness/calls/egress.ts';
import { createRedactor } from '../../../actors/harness/redact.ts';
import { HarnessCallsActions } from '../../../contracts/actions/harness-calls.actions.ts';
import { HarnessUsageActions } from '../../../contracts/actions/harness-usage.actions.ts';
import type { LlmCallInput } from '../../../contracts/harness-usage.ts';
import { startActors } from '../../support/actors.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';

const KEY_VAR = `HARNESS_CALLS_TEST_KEY_${process.pid}`;

/** `harness.complete` on a real broker: the calls part, with a stand-in ledger that records what it is handed. */
describe('harness.complete', () => {
  let server: WireServer;
  let h: BrokerHandle;
  const recorded: LlmCallInput[] = [];
  const target = () => ({
    provider: 'local',
    family: 'openai_compatible' as const,
    base_url: server.url,
    api_key_ref: `env:${KEY_VAR}`,
  });

  beforeAll(async () => {
    process.env[KEY_VAR] = 'sk-calls-test';
    server = await startOpenAIServer({ apiKey: 'sk-calls-test' });
    const harness = (infra: Infra) => ({
      name: 'harness',
      actions: {
        ...createCallsPart({ infra, redact: createRedactor(), egress: createEgressPolicy('127.0.0.1') }).actions,
        recordCall: action(HarnessUsageActions.recordCall, (rec) => {
          recorded.push(rec);
          return { id: rec.id, recorded: true, cost_usd: null };
        }),
      },
    });
    h = await startActors([harness]);
  });
  afterAll(async () => {
    await h.broker.stop();
    await server.close();
    delete process.env[KEY_VAR];
  });

  it('answers the completion and hands the ledger its record', async () => {
    server.enqueue({ text: ['Fine.'], usage: { prompt_tokens: 40, completion_tokens: 3, cached_tokens: 32 } });
    const res = await call(h.broker, HarnessCallsActions.complete, {
      target: target(),
      model: 'qwen2.5:7b',
      messages: [{ role: 'user', content: 'How are you?' }],
      role: 'chat',
      run_id: 'run-1',
      project_id: 'p-1',
    });
    expect(res).toMatchObject({ outcome: 'ok', completion: { text: 'Fine.', stop_reason: 'end_turn' } });
    expect(server.last?.headers.authorization).toBe('Bearer sk-calls-test');
    expect(recorded.at(-1)).toMatchObject({
      id: res.record_id,
      provider: 'local',
      model: 'qwen2.5:7b',
      role: 'chat',
      run_id: 'run-1',
      project_id: 'p-1',
      prompt_tokens: 40,
      completion_tokens: 3,
      cached_input_tokens: 32,
      usage_reported: true,
      outcome: 'ok',
      failure_class: null,
    });
  });

  it('answers a provider fault as a classified failure, recorded as failed', async () => {
    server.enqueue({ fault: { status: 429, type: 'rate_limit_error', message: 'slow down', retryAfter: '2' } });
    const res = await call(h.broker, HarnessCallsActions.complete, {
      target: target(),
      model: 'qwen2.5:7b',
      messages: [{ role: 'user', content: 'Again?' }],
      role: 'gate_check',
    });
    expect(res).toMatchObject({
      outcome: 'failed',
      failure: { class: 'transient', rotate_credential: true, retry_after_ms: 2000 },
    });
    expect(recorded.at(-1)).toMatchObject({
      id: res.record_id,
      outcome: 'failed',
      failure_class: 'transient',
      usage_reported: false,
    });
  });

  it('refuses a key reference that resolves to nothing before any request', async () => {
    const before = server.requests.length;
    const res = await call(h.broker, HarnessCallsActions.complete, {
      target: { ...target(), api_key_ref: 'env:HARNESS_CALLS_TEST_UNSET_KEY' },
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      role: 'chat',
    });
    expect(res).toMatchObject({ outcome: 'failed', record_id: null, failure: { class: 'environment' } });
    expect(res.outcome === 'failed' && res.failure.message).toContain('env:HARNESS_CALLS_TEST_UNSET_KEY');
    expect(server.requests.length).toBe(before);
  });

  it('rejects bad params with a validation error naming the field', async () => {
    const err = await call(h.broker, HarnessCallsActions.complete, {
      target: target(),
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      role: 'oracle',
    }).catch((e: unknown) => e as { type?: string; message?: string });
    expect(err).toMatchObject({ type: 'VALIDATION_FAILED', message: expect.stringContaining('role') });
  });
});
