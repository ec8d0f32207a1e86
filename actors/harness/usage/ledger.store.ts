import type { Db, Queryable } from '../../../brokers/db/index.ts';
import { emptyUsageTotals, type UsageBucket, type UsageTotals } from '../../../contracts/flows.ts';
import type { LlmCallInput } from '../../../contracts/harness-usage.ts';
import type { CallCost } from './prices.ts';

/** What recording one call did: `recorded` false when its id was already in the ledger (nothing changed). */
export interface RecordOutcome {
  recorded: boolean;
  cost_usd: number | null;
  /** Set when this record made the run's spend reach the alert threshold (once per run, decided in the database). */
  spendAlert?: { run_id: string; spend_usd: number };
}

interface BucketRow {
  dim: 'total' | 'phase' | 'role' | 'model';
  phase: string | null;
  role: string | null;
  provider: string | null;
  model: string | null;
  calls: string;
  prompt: string | null;
  completion: string | null;
  cached_input: string | null;
  cost_usd: number | null;
  without_usage: string;
  unpriced: string;
  subscription: string;
}

function toBucket(r: BucketRow): UsageBucket {
  const calls = Number(r.calls);
  const subscription = Number(r.subscription);
  return {
    tokens: {
      prompt: Number(r.prompt ?? 0),
      completion: Number(r.completion ?? 0),
      cached_input: Number(r.cached_input ?? 0),
    },
    cost_usd: r.cost_usd === null ? null : Number(r.cost_usd),
    calls,
    calls_without_usage: Number(r.without_usage),
    calls_unpriced: Number(r.unpriced),
    calls_subscription: subscription,
    billing: subscription === 0 ? 'metered' : subscription === calls ? 'subscription' : 'mixed',
  };
}

const INSERT_CALL_COLUMNS = `INSERT INTO harness_llm_calls (id, at, provider, model, role, phase, run_id, project_id,
    credential_id, prompt_tokens, completion_tokens, cached_input_tokens, usage_reported, outcome, failure_class,
    latency_ms, priced, subscription, cost_usd, principal_subject, principal_client_id)`;
const INSERT_CALL = `${INSERT_CALL_COLUMNS}
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
  ON CONFLICT (id) DO NOTHING RETURNING id`;

/** One call's values in INSERT_CALL_COLUMNS order. */
const callRow = (c: LlmCallInput, cost: CallCost): unknown[] => [
  c.id,
  c.at,
  c.provider,
  c.model,
  c.role,
  c.phase,
  c.run_id,
  c.project_id,
  c.credential_id,
  c.prompt_tokens,
  c.completion_tokens,
  c.cached_input_tokens,
  c.usage_reported,
  c.outcome,
  c.failure_class,
  c.latency_ms,
  cost.priced,
  cost.subscription,
  cost.cost_usd,
  c.principal_subject ?? null,
  c.principal_client_id ?? null,
];

const ADD_SPEND = `INSERT INTO harness_run_spend (run_id, spend_usd, updated_at) VALUES ($1, $2, $3)
  ON CONFLICT (run_id) DO UPDATE SET spend_usd = harness_run_spend.spend_usd + EXCLUDED.spend_usd,
    updated_at = EXCLUDED.updated_at`;

// Runs under the row lock the upsert above took in the same transaction: one record per run ever sets alerted_at.
const MARK_ALERT = `UPDATE harness_run_spend SET alerted_at = $2, alert_role = $3
  WHERE run_id = $1 AND alerted_at IS NULL AND spend_usd >= $4 RETURNING spend_usd`;

// One pass over the window: the total and the breakdowns by phase, by role and by provider:model.
const SUMMARY = `SELECT
    CASE WHEN GROUPING(phase) = 0 THEN 'phase' WHEN GROUPING(role) = 0 THEN 'role'
      WHEN GROUPING(provider, model) = 0 THEN 'model' ELSE 'total' END AS dim,
    phase, role, provider, model, count(*) AS calls,
    sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion, sum(cached_input_tokens) AS cached_input,
    sum(cost_usd) AS cost_usd,
    count(*) FILTER (WHERE NOT usage_reported) AS without_usage,
    count(*) FILTER (WHERE NOT priced) AS unpriced,
    count(*) FILTER (WHERE subscription) AS subscription
  FROM harness_llm_calls WHERE at >= $1 AND at <= $2 AND ($3::text IS NULL OR run_id = $3)
    AND ($4::text IS NULL OR principal_subject = $4)
  GROUP BY GROUPING SETS ((), (phase), (role), (provider, model))`;

/** SQL of the harness call ledger (harness_llm_calls, harness_run_spend); the only code that touches them. */
export function createLedgerStore(db: Db) {
  return {
    /**
     * Records one priced call, once per id. A new call with a run and a cost adds to the run's spend; the record that
     * makes the spend reach `alertUsd` first is the one that reports `spendAlert`.
     */
    record(c: LlmCallInput, cost: CallCost, alertUsd: number, now: Date): Promise<RecordOutcome> {
      // A call that adds to no run's spend is one statement; one that does takes the spend row in the same transaction.
      const addsSpend = Boolean(c.run_id && cost.cost_usd);
      const run = async (q: Queryable): Promise<RecordOutcome> => {
        const inserted = await q.query(INSERT_CALL, callRow(c, cost));
        if (inserted.rowCount === 0) {
          const prior = await q.query<{ cost_usd: number | null }>(
            'SELECT cost_usd FROM harness_llm_calls WHERE id = $1',
            [c.id],
          );
          return { recorded: false, cost_usd: prior.rows[0]?.cost_usd ?? null };
        }
        if (!c.run_id || !cost.cost_usd) return { recorded: true, cost_usd: cost.cost_usd };
        await q.query(ADD_SPEND, [c.run_id, cost.cost_usd, now]);
        const alert = await q.query<{ spend_usd: number }>(MARK_ALERT, [c.run_id, now, c.role, alertUsd]);
        const row = alert.rows[0];
        return {
          recorded: true,
          cost_usd: cost.cost_usd,
          spendAlert: row && { run_id: c.run_id, spend_usd: Number(row.spend_usd) },
        };
      };
      return addsSpend ? db.tx(run) : run(db);
    },

    /**
     * Records calls that add to no run's spend, in one statement (idempotent on each id); answers the ids it stored
     * (the others were recorded before).
     */
    async recordMany(calls: readonly { c: LlmCallInput; cost: CallCost }[]): Promise<Set<string>> {
      const cols = 21;
      const values = calls.map(
        (_, i) => `(${Array.from({ length: cols }, (_, j) => `$${i * cols + j + 1}`).join(', ')})`,
      );
      const params = calls.flatMap(({ c, cost }) => callRow(c, cost));
      const { rows } = await db.query<{ id: string }>(
        `${INSERT_CALL_COLUMNS} VALUES ${values.join(', ')} ON CONFLICT (id) DO NOTHING RETURNING id`,
        params,
      );
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Usage totals of the calls made in [since, until], of one run when `runId` is given (SPEC "Usage totals"); calls
     * outside a phase are not in by_phase; of the calls made for one principal when `subject` is given (decision 0113).
     */
    async summary(
      since: Date,
      until: Date,
      runId: string | null = null,
      subject: string | null = null,
    ): Promise<UsageTotals> {
      const { rows } = await db.query<BucketRow>(SUMMARY, [since, until, runId, subject]);
      const totals: UsageTotals = emptyUsageTotals();
      for (const r of rows) {
        const bucket = toBucket(r);
        if (r.dim === 'total') Object.assign(totals, bucket);
        else if (r.dim === 'phase' && r.phase !== null) totals.by_phase[r.phase] = bucket;
        else if (r.dim === 'role' && r.role !== null) totals.by_role[r.role] = bucket;
        else if (r.dim === 'model') totals.by_model[`${r.provider}:${r.model}`] = bucket;
      }
      return totals;
    },

    /** A run's spend so far and whether its alert fired (tests, diagnostics). */
    async runSpend(
      runId: string,
    ): Promise<{ spend_usd: number; alerted: boolean; alert_role: string | null } | undefined> {
      const { rows } = await db.query<{ spend_usd: number; alerted_at: Date | null; alert_role: string | null }>(
        'SELECT spend_usd, alerted_at, alert_role FROM harness_run_spend WHERE run_id = $1',
        [runId],
      );
      const r = rows[0];
      return r && { spend_usd: Number(r.spend_usd), alerted: r.alerted_at !== null, alert_role: r.alert_role };
    },

    async ping(): Promise<void> {
      await db.query('SELECT 1 FROM harness_llm_calls LIMIT 1');
    },
  };
}
export type LedgerStore = ReturnType<typeof createLedgerStore>;
