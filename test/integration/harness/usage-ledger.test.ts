import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../../brokers/db/index.ts';
import { createLedgerStore, type LedgerStore } from '../../../actors/harness/usage/ledger.store.ts';
import type { CallCost } from '../../../actors/harness/usage/prices.ts';
import type { LlmCallInput } from '../../../contracts/harness-usage.ts';
import { describeEachDb } from '../../support/pg.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

let seq = 0;
function call(over: Partial<LlmCallInput> = {}): LlmCallInput {
  return {
    id: `call-${++seq}`,
    at: hoursAgo(1),
    provider: 'openai',
    model: 'gpt-4.1',
    role: 'phase_brain',
    phase: 'design',
    run_id: null,
    project_id: null,
    credential_id: 'cred-1',
    prompt_tokens: 1000,
    completion_tokens: 100,
    cached_input_tokens: 0,
    usage_reported: true,
    outcome: 'ok',
    failure_class: null,
    latency_ms: 12.5,
    ...over,
  };
}
const metered = (usd: number | null): CallCost => ({ cost_usd: usd, priced: usd !== null, subscription: false });
const window = (store: LedgerStore, hours: number) => store.summary(new Date(NOW.getTime() - hours * 3_600_000), NOW);

describeEachDb((backend, make) => {
  describe(`harness call ledger on ${backend}`, () => {
    let db: Db;
    let dispose: () => Promise<void>;
    let store: LedgerStore;
    beforeAll(async () => {
      ({ db, dispose } = await make());
      await migrate(db);
      store = createLedgerStore(db);
    });
    afterAll(() => dispose());

    it('records a call once: a second record with the same id changes nothing', async () => {
      const c = call({ run_id: 'run-idem', phase: 'idem' });
      expect(await store.record(c, metered(0.25), 5, NOW)).toEqual({ recorded: true, cost_usd: 0.25 });
      const again = { ...c, prompt_tokens: 99_999, completion_tokens: 99_999 };
      expect(await store.record(again, metered(9), 5, NOW)).toEqual({ recorded: false, cost_usd: 0.25 });
      const u = await window(store, 2);
      expect(u.by_phase.idem).toMatchObject({ calls: 1, cost_usd: 0.25, tokens: { prompt: 1000, completion: 100 } });
      expect((await store.runSpend('run-idem'))?.spend_usd).toBe(0.25);
    });

    it('summarises a trailing window with breakdowns by phase, role and provider:model', async () => {
      const at = hoursAgo(0.5);
      const g = { phase: 'sum', at };
      await store.record(call({ ...g, cached_input_tokens: 400 }), metered(0.001), 5, NOW);
      await store.record(call({ ...g, role: 'gate_check', model: 'gpt-4.1-mini' }), metered(0.002), 5, NOW);
      await store.record(call({ ...g, model: 'local-llm', provider: 'ollama' }), metered(null), 5, NOW);
      const noUsage = { usage_reported: false, prompt_tokens: 0, completion_tokens: 0 };
      await store.record(call({ ...g, ...noUsage }), { cost_usd: null, priced: true, subscription: false }, 5, NOW);
      await store.record(
        call({ ...g, provider: 'anthropic', model: 'plan' }),
        { cost_usd: 0, priced: true, subscription: true },
        5,
        NOW,
      );
      await store.record(call({ phase: 'sum', at: hoursAgo(30) }), metered(7), 5, NOW);

      const day = await window(store, 24);
      expect(day.by_phase.sum.cost_usd).toBeCloseTo(0.003, 12);
      expect({ ...day.by_phase.sum, cost_usd: 'summed' }).toEqual({
        tokens: { prompt: 4000, completion: 400, cached_input: 400 },
        cost_usd: 'summed',
        calls: 5,
        calls_without_usage: 1,
        calls_unpriced: 1,
        calls_subscription: 1,
        billing: 'mixed',
      });
      expect(day.by_model['ollama:local-llm']).toMatchObject({ calls: 1, cost_usd: null, calls_unpriced: 1 });
      expect(day.by_model['anthropic:plan']).toMatchObject({ calls: 1, cost_usd: 0, billing: 'subscription' });
      expect(day.by_role.gate_check).toMatchObject({ calls: 1, cost_usd: 0.002, billing: 'metered' });
      expect(day.calls).toBe(Object.values(day.by_role).reduce((n, b) => n + b.calls, 0));

      const twoDays = await window(store, 48);
      expect(twoDays.by_phase.sum.calls).toBe(6);
      expect(twoDays.by_phase.sum.cost_usd).toBeCloseTo(7.003, 9);
    });

    it('answers an empty window with zero calls and cost null', async () => {
      const empty = await store.summary(new Date('2020-01-01T00:00:00Z'), new Date('2020-01-02T00:00:00Z'));
      expect(empty).toEqual({
        tokens: { prompt: 0, completion: 0, cached_input: 0 },
        cost_usd: null,
        calls: 0,
        calls_without_usage: 0,
        calls_unpriced: 0,
        calls_subscription: 0,
        billing: 'metered',
        by_phase: {},
        by_role: {},
        by_model: {},
      });
    });

    it('alerts once per run when its spend reaches the threshold, under concurrent records and after a restart', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.record(call({ run_id: 'run-spend', role: i % 2 ? 'chat' : 'phase_brain' }), metered(0.5), 5, NOW),
        ),
      );
      const alerts = results.filter((r) => r.spendAlert);
      expect(alerts).toHaveLength(1);
      expect(alerts[0].spendAlert?.spend_usd).toBeGreaterThanOrEqual(5);
      expect(await store.runSpend('run-spend')).toMatchObject({ spend_usd: 10, alerted: true });

      const restarted = createLedgerStore(db);
      const later = await restarted.record(call({ run_id: 'run-spend' }), metered(3), 5, NOW);
      expect(later).toEqual({ recorded: true, cost_usd: 3 });
      expect((await restarted.runSpend('run-spend'))?.spend_usd).toBe(13);
    });

    it("sums one run's calls when asked for a run", async () => {
      await store.record(call({ run_id: 'run-own', phase: 'a', at: hoursAgo(100) }), metered(1), 50, NOW);
      await store.record(call({ run_id: 'run-own', phase: 'b' }), metered(2), 50, NOW);
      await store.record(call({ run_id: 'run-other', phase: 'a' }), metered(4), 50, NOW);
      const u = await store.summary(new Date(0), NOW, 'run-own');
      expect(u).toMatchObject({ calls: 2, cost_usd: 3, by_phase: { a: { calls: 1 }, b: { calls: 1 } } });
      expect((await store.summary(new Date(0), NOW, 'run-none')).calls).toBe(0);
    });

    it('never alerts for unpriced calls or calls outside a run', async () => {
      const r1 = await store.record(call({ run_id: 'run-unpriced' }), metered(null), 0, NOW);
      const r2 = await store.record(call({ run_id: null }), metered(100), 0, NOW);
      expect(r1.spendAlert ?? r2.spendAlert).toBeUndefined();
      expect(await store.runSpend('run-unpriced')).toBeUndefined();
    });
  });
});
