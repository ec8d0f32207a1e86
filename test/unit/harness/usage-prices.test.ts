import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { costOf, DEFAULT_PRICES_PATH, loadPriceTable, priceOf } from '../../../actors/harness/usage/prices.ts';
import type { PriceTable } from '../../../contracts/harness-usage.ts';

const table: PriceTable = {
  currency: 'USD',
  unit: 'per_million_tokens',
  as_of: '2026-11-25',
  sources: [],
  prices: {
    openai: { 'gpt-4.1': { input: 2, cached_input: 0.5, output: 8 } },
    ollama: { 'llama3.1:8b': { input: 0, cached_input: 0, output: 0 } },
    team: { plan: { subscription: true } },
  },
};
const tokens = (prompt: number, completion: number, cached_input = 0, usage_reported = true) => ({
  prompt,
  completion,
  cached_input,
  usage_reported,
});

describe('model prices', () => {
  it('prices cached input on its own rate, the rest of the prompt at input, completion at output', () => {
    const c = costOf(priceOf(table, 'openai', 'gpt-4.1'), tokens(1_000_000, 500_000, 400_000));
    expect(c).toEqual({
      cost_usd: 600_000 * 2e-6 + 400_000 * 0.5e-6 + 500_000 * 8e-6,
      priced: true,
      subscription: false,
    });
    expect(c.cost_usd).toBeCloseTo(5.4, 12);
  });

  it('gives an unknown model (or provider, or a snapshot not listed by name) cost null, never a guess', () => {
    expect(costOf(priceOf(table, 'openai', 'gpt-4.1-2099-01-01'), tokens(10, 10))).toEqual({
      cost_usd: null,
      priced: false,
      subscription: false,
    });
    expect(priceOf(table, 'nobody', 'gpt-4.1')).toBeUndefined();
    expect(priceOf(table, 'openai', 'constructor')).toBeUndefined();
  });

  it('leaves cost null when the provider reported no usage; a free local model costs 0; a subscription call 0', () => {
    expect(costOf(priceOf(table, 'openai', 'gpt-4.1'), tokens(0, 0, 0, false)).cost_usd).toBeNull();
    expect(costOf(priceOf(table, 'ollama', 'llama3.1:8b'), tokens(5000, 100)).cost_usd).toBe(0);
    expect(costOf(priceOf(table, 'team', 'plan'), tokens(0, 0, 0, false))).toEqual({
      cost_usd: 0,
      priced: true,
      subscription: true,
    });
  });

  it('never charges more cached tokens than reported: a count above the prompt is charged as cached only', () => {
    expect(costOf(priceOf(table, 'openai', 'gpt-4.1'), tokens(100, 0, 300)).cost_usd).toBeCloseTo(300 * 0.5e-6, 15);
  });

  it('ships a dated default table with OpenAI and Anthropic list prices that loads', async () => {
    const t = await loadPriceTable(DEFAULT_PRICES_PATH);
    expect(t.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(t.sources.length).toBeGreaterThanOrEqual(2);
    expect(priceOf(t, 'openai', 'gpt-4.1')).toEqual({ input: 2, cached_input: 0.5, output: 8 });
    expect(priceOf(t, 'anthropic', 'claude-sonnet-4-5-20250929')).toEqual({ input: 3, cached_input: 0.3, output: 15 });
  });

  describe('a bad price file names the file and the problem', () => {
    const dir = fs.mkdtemp(path.join(os.tmpdir(), 'prices-'));
    afterAll(async () => fs.rm(await dir, { recursive: true, force: true }));
    const write = async (name: string, text: string) => {
      const file = path.join(await dir, name);
      await fs.writeFile(file, text);
      return file;
    };

    it('missing', async () => {
      const file = path.join(await dir, 'absent.json');
      await expect(loadPriceTable(file)).rejects.toThrow(
        `price table ${file} (SERVICE_MODEL_PRICES_PATH) cannot be read`,
      );
    });

    it('not JSON', async () => {
      const file = await write('broken.json', '{"prices": ');
      await expect(loadPriceTable(file)).rejects.toThrow(`price table ${file} (SERVICE_MODEL_PRICES_PATH) is not JSON`);
    });

    it('a negative price, a missing cached_input, a misspelt field', async () => {
      const bad = {
        ...table,
        prices: { openai: { a: { input: -1, cached_input: 0, output: 1 }, b: { input: 1, output: 1 } } },
      };
      const file = await write('bad.json', JSON.stringify({ ...bad, curency: 'USD' }));
      const err = await loadPriceTable(file).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).name).toBe('ConfigError');
      expect((err as Error).message).toContain(`price table ${file} (SERVICE_MODEL_PRICES_PATH) is invalid`);
      expect((err as Error).message).toMatch(/prices\.openai\.a/);
      expect((err as Error).message).toMatch(/prices\.openai\.b/);
      expect((err as Error).message).toMatch(/curency/);
    });
  });
});
