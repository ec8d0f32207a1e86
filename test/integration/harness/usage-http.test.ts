import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HarnessUsageActions as H } from '../../../contracts/actions/harness-usage.actions.ts';
import type { LlmCallInput } from '../../../contracts/harness-usage.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

let seq = 0;
const record = (over: Partial<LlmCallInput> = {}): LlmCallInput => ({
  id: `http-${++seq}`,
  at: new Date().toISOString(),
  provider: 'openai',
  model: 'gpt-4.1',
  role: 'phase_brain',
  phase: 'design',
  run_id: 'run-http',
  project_id: 'p-http',
  credential_id: 'cred-a',
  prompt_tokens: 1_000_000,
  completion_tokens: 100_000,
  cached_input_tokens: 200_000,
  usage_reported: true,
  outcome: 'ok',
  failure_class: null,
  latency_ms: 900,
  ...over,
});
const get = async (t: TestNode, p: string) => {
  const res = await fetch(`${t.url}${p}`);
  return { status: res.status, text: await res.text() };
};
const json = async (t: TestNode, p: string) => JSON.parse((await get(t, p)).text);

describe('harness usage through the gateway', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ roles: 'gateway,harness,runs', env: { SERVICE_RUN_SPEND_ALERT_USD: '5' } });
  }, 60_000);
  afterAll(() => t?.stop());

  it('records each call once, prices it, and serves the summary, /health and the metrics from the ledger', async () => {
    const b = t.node.broker;
    // gpt-4.1: 800k uncached x $2 + 200k cached x $0.50 + 100k out x $8 per million = $2.50
    const first = record();
    expect(await call(b, H.recordCall, first)).toEqual({ id: first.id, recorded: true, cost_usd: 2.5 });
    expect(await call(b, H.recordCall, first)).toEqual({ id: first.id, recorded: false, cost_usd: 2.5 });
    await call(b, H.recordCall, record({ role: 'gate_check', phase: 'simulation' }));
    await call(b, H.recordCall, record({ role: 'gate_check', phase: 'simulation' }));
    const noUsage = { usage_reported: false, prompt_tokens: 0, completion_tokens: 0, cached_input_tokens: 0 };
    await call(b, H.recordCall, record({ ...noUsage, role: 'chat', phase: null, run_id: null }));
    await expect(call(b, H.recordCall, record({ at: 'yesterday', prompt_tokens: -1 }))).rejects.toMatchObject({
      type: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^invalid at/),
    });
    const unknown = await call(b, H.recordCall, record({ provider: 'ollama', model: 'qwen3:8b', run_id: null }));
    expect(unknown.cost_usd).toBeNull();

    const run = await call(b, H.runUsage, { run_id: 'run-http' });
    expect(run).toMatchObject({
      calls: 3,
      cost_usd: 7.5,
      by_role: { phase_brain: { calls: 1 }, gate_check: { calls: 2 } },
    });

    const summary = await json(t, '/v1/runs/usage/summary?window_hours=24');
    expect(summary).toMatchObject({ window_hours: 24, runs: 0 });
    expect(summary.usage).toMatchObject({
      calls: 5,
      cost_usd: 7.5,
      calls_without_usage: 1,
      calls_unpriced: 1,
      tokens: { prompt: 4_000_000, completion: 400_000, cached_input: 800_000 },
      billing: 'metered',
    });
    expect(summary.usage.by_phase.simulation).toMatchObject({ calls: 2, cost_usd: 5 });
    expect(summary.usage.by_role).toMatchObject({ chat: { calls: 1, calls_without_usage: 1, cost_usd: null } });
    expect(summary.usage.by_model['ollama:qwen3:8b']).toMatchObject({ calls: 1, cost_usd: null, calls_unpriced: 1 });

    const health = await json(t, '/health');
    expect(health.llm_usage_24h).toMatchObject({ available: true, calls: 5, cost_usd: 7.5 });

    const metrics = (await get(t, '/metrics')).text;
    const base = 'role="gate_check",provider="openai",model="gpt-4.1"';
    expect(metrics).toMatch(/service_llm_calls_total\{[^}]*usage_reported="false"[^}]*\} 1/);
    expect(metrics).toContain(`service_llm_tokens_total{${base},kind="cached_input"} 400000`);
    expect(metrics).toContain(`service_llm_cost_usd_total{${base}} 5`);
    // Run run-http: $2.50, then $5.00 (reaches 5), then $7.50: the alert fired once, for the record that crossed.
    expect(metrics).toContain('service_llm_run_spend_exceeded_total{role="gate_check"} 1');
    expect(metrics).not.toContain('service_llm_run_spend_exceeded_total{role="phase_brain"}');
  });

  it("records a turn's calls at once: each once, in order, a run's spend through its own row", async () => {
    const b = t.node.broker;
    const simple = record({ run_id: null, role: 'chat' });
    const spent = record({ run_id: 'run-batch' });
    const first = await call(b, H.recordCalls, { calls: [simple, spent] });
    expect(first.results).toEqual([
      { id: simple.id, recorded: true, cost_usd: 2.5 },
      { id: spent.id, recorded: true, cost_usd: 2.5 },
    ]);
    const again = await call(b, H.recordCalls, { calls: [spent, simple] });
    expect(again.results.map((r) => [r.id, r.recorded])).toEqual([
      [spent.id, false],
      [simple.id, false],
    ]);
    expect(await call(b, H.runUsage, { run_id: 'run-batch' })).toMatchObject({ calls: 1, cost_usd: 2.5 });
  });

  it('answers llm_usage_24h available false with a reason when the ledger cannot be read', async () => {
    const db = await t.node.infra.db();
    await db.query('ALTER TABLE harness_llm_calls RENAME TO harness_llm_calls_moved');
    try {
      const health = await json(t, '/health');
      expect(health.llm_usage_24h.available).toBe(false);
      expect(health.llm_usage_24h.reason).toMatch(/harness usage ledger cannot be read: .*harness_llm_calls/);
      const summary = await get(t, '/v1/runs/usage/summary');
      expect(summary.status).toBe(503);
      expect(JSON.parse(summary.text).error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/^the usage ledger cannot be read: .*harness_llm_calls/),
      });
    } finally {
      await db.query('ALTER TABLE harness_llm_calls_moved RENAME TO harness_llm_calls');
    }
    expect((await json(t, '/health')).llm_usage_24h.available).toBe(true);
  });

  it('answers llm_usage_24h available false when no harness is on the bus', async () => {
    const bare = await startTestNode({ roles: 'gateway' });
    try {
      const health = await json(bare, '/health');
      expect(health.llm_usage_24h).toEqual({
        available: false,
        reason: expect.stringMatching(/harness usage ledger cannot be read: .*harness\.usageSummary/),
      });
    } finally {
      await bare.stop();
    }
  });

  it('refuses to start with a bad price file, naming the file and the problem', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'prices-'));
    const file = path.join(dir, 'prices.json');
    await fs.writeFile(
      file,
      JSON.stringify({ currency: 'EUR', unit: 'per_million_tokens', as_of: '2026-11-25', prices: {} }),
    );
    try {
      await expect(startTestNode({ roles: 'harness', env: { SERVICE_MODEL_PRICES_PATH: file } })).rejects.toThrow(
        new RegExp(
          `price table ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(SERVICE_MODEL_PRICES_PATH\\) is invalid:\\s+currency`,
        ),
      );
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
