import { action } from '../../../brokers/actions.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { HarnessUsageActions as A } from '../../../contracts/actions/harness-usage.actions.ts';
import type { LlmCallInput, PriceTable } from '../../../contracts/harness-usage.ts';
import type { HarnessContext, HarnessPart } from '../context.ts';
import { createLedgerStore, type LedgerStore } from './ledger.store.ts';
import { costOf, DEFAULT_PRICES_PATH, loadPriceTable, priceOf } from './prices.ts';
import { createUsageMetrics } from './usage.metrics.ts';

/** Every call of a run, whatever the clocks of the nodes that recorded them said. */
const ALL_TIME = { since: new Date('1970-01-01T00:00:00Z'), until: new Date('9999-12-31T23:59:59Z') };

/**
 * The harness's `usage` part: the call ledger (every model call, priced from the price table kept as data), usage
 * summaries over a trailing window, and the usage metrics. The price table is read at start; a bad file stops it.
 */
export function createUsagePart(h: HarnessContext): HarnessPart {
  const { infra } = h;
  const metrics = createUsageMetrics(infra.metrics, infra.config.SERVICE_HARNESS_MAX_LABEL_VALUES);
  let store: LedgerStore | undefined;
  let prices: PriceTable | undefined;

  const ready = () => {
    if (!store || !prices) throw new ActorError('SERVICE_UNAVAILABLE', 'the harness usage ledger is not started');
    return { store, prices };
  };

  /** A ledger read; a database failure is SERVICE_UNAVAILABLE naming the cause (never a bare 500). */
  const readable = <T>(read: () => Promise<T>): Promise<T> =>
    read().catch((err: unknown) => {
      infra.log.error({ err }, 'harness usage ledger not readable');
      throw new ActorError('SERVICE_UNAVAILABLE', `the usage ledger cannot be read: ${(err as Error).message}`);
    });

  const costOfCall = (c: LlmCallInput) =>
    costOf(priceOf(ready().prices, c.provider, c.model), {
      prompt: c.prompt_tokens,
      completion: c.completion_tokens,
      cached_input: c.cached_input_tokens,
      usage_reported: c.usage_reported,
    });

  /** Records one call and prices it (idempotent on its id); the spend alert once per run. */
  async function recordOne(c: LlmCallInput) {
    const { store } = ready();
    const cost = costOfCall(c);
    const out = await store.record(c, cost, infra.config.SERVICE_RUN_SPEND_ALERT_USD, infra.now());
    if (out.recorded) metrics.call(c, out.cost_usd);
    if (out.spendAlert) {
      metrics.spendExceeded(c.role);
      infra.log.warn(
        {
          run: out.spendAlert.run_id,
          spend_usd: out.spendAlert.spend_usd,
          alert_usd: infra.config.SERVICE_RUN_SPEND_ALERT_USD,
          role: c.role,
        },
        'llm_run_spend_exceeded',
      );
    }
    return { id: c.id, recorded: out.recorded, cost_usd: out.cost_usd };
  }

  return {
    actions: {
      recordCall: action(A.recordCall, (c) => recordOne(c)),

      // A turn's records: those that add to no run's spend in one statement, the others one by one (their spend row).
      recordCalls: action(A.recordCalls, async ({ calls }) => {
        const { store } = ready();
        const priced = calls.map((c) => ({ c, cost: costOfCall(c) }));
        const simple = priced.filter(({ c, cost }) => !(c.run_id && cost.cost_usd));
        const inserted = simple.length ? await store.recordMany(simple) : new Set<string>();
        const results = [];
        for (const { c, cost } of priced) {
          if (c.run_id && cost.cost_usd) results.push(await recordOne(c));
          else {
            const recorded = inserted.has(c.id);
            if (recorded) metrics.call(c, cost.cost_usd);
            results.push({ id: c.id, recorded, cost_usd: cost.cost_usd });
          }
        }
        return { results };
      }),

      usageSummary: action(A.usageSummary, async ({ window_hours, subject }) => {
        const { store } = ready();
        const until = infra.now();
        const since = new Date(until.getTime() - window_hours * 3_600_000);
        const usage = await readable(() => store.summary(since, until, null, subject ?? null));
        return {
          window_hours,
          since: since.toISOString(),
          until: until.toISOString(),
          ...(subject ? { subject } : {}),
          usage,
        };
      }),

      runUsage: action(A.runUsage, async ({ run_id }) => {
        const { store } = ready();
        return readable(() => store.summary(ALL_TIME.since, ALL_TIME.until, run_id));
      }),
    },

    async started() {
      const file = infra.config.SERVICE_MODEL_PRICES_PATH ?? DEFAULT_PRICES_PATH;
      prices = await loadPriceTable(file);
      store = createLedgerStore(await infra.db());
      infra.log.info(
        { file, as_of: prices.as_of, providers: Object.keys(prices.prices) },
        'harness price table loaded',
      );
    },
  };
}
