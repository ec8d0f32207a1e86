import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../../brokers/config.ts';
import { PriceTableSchema, type ModelPrice, type PriceTable } from '../../../contracts/harness-usage.ts';

/** The price table shipped with the service, used when `SERVICE_MODEL_PRICES_PATH` is unset. */
export const DEFAULT_PRICES_PATH = fileURLToPath(new URL('./model-prices.default.json', import.meta.url));

/**
 * Reads and checks a price table file. Any problem (missing, unreadable, not JSON, wrong shape) is a ConfigError naming
 * the file and the problem: a bad price file stops the start rather than pricing calls wrongly.
 */
export async function loadPriceTable(file: string): Promise<PriceTable> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`price table ${file} (SERVICE_MODEL_PRICES_PATH) cannot be read: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`price table ${file} (SERVICE_MODEL_PRICES_PATH) is not JSON: ${(err as Error).message}`);
  }
  const parsed = PriceTableSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new ConfigError(`price table ${file} (SERVICE_MODEL_PRICES_PATH) is invalid:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}

/** The price of a provider's model, exactly as named; undefined when the table has none (the call is unpriced). */
export function priceOf(table: PriceTable, provider: string, model: string): ModelPrice | undefined {
  const models = table.prices[provider];
  return models && Object.hasOwn(models, model) ? models[model] : undefined;
}

/** What one call costs and how it is billed (SPEC "Usage totals"). */
export interface CallCost {
  /** USD; null when the model has no price or the provider reported no usage (counted, never guessed). */
  cost_usd: number | null;
  priced: boolean;
  subscription: boolean;
}

/**
 * Prices one call: uncached input at `input`, cached input at `cached_input`, completion at `output`, per million
 * tokens. `prompt` includes the cached tokens; a provider that reports more cached than prompt tokens is charged for
 * the cached ones only. A subscription call costs 0 whatever its usage.
 */
export function costOf(
  price: ModelPrice | undefined,
  t: { prompt: number; completion: number; cached_input: number; usage_reported: boolean },
): CallCost {
  if (!price) return { cost_usd: null, priced: false, subscription: false };
  if ('subscription' in price) return { cost_usd: 0, priced: true, subscription: true };
  if (!t.usage_reported) return { cost_usd: null, priced: true, subscription: false };
  const uncached = Math.max(0, t.prompt - t.cached_input);
  const usd = (uncached * price.input + t.cached_input * price.cached_input + t.completion * price.output) / 1e6;
  return { cost_usd: usd, priced: true, subscription: false };
}
