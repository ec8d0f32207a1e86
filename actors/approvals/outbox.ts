import type { Queryable } from '../../brokers/db/index.ts';

/** A decision effect that must reach another actor (table approval_outbox, migration 0053). */
export interface OutboxRow {
  /** The decision's idempotency key (a gate) or the ledger record (a flow approval): one row per effect. */
  key: string;
  effect: 'runs.decide' | 'runs.settleFlow';
  approval_id: string;
  target_id: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/** Seconds before the next attempt after `attempts` failed ones: 1, 2, 4, ... capped at a minute. */
export const backoffSeconds = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1));

/** Writes an effect to deliver, due now (in the caller's transaction); an existing row for the key is kept. */
export async function enqueue(q: Queryable, row: Omit<OutboxRow, 'attempts'>, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO approval_outbox (key, effect, approval_id, target_id, payload, next_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (key) DO NOTHING`,
    [row.key, row.effect, row.approval_id, row.target_id, JSON.stringify(row.payload), now],
  );
}

/** The outbox of the approvals actor: due rows, and the two ends of a delivery attempt. */
export function createOutbox(db: Queryable) {
  return {
    /** Rows due at `now` (all of them with `key`: that one row whatever its time), oldest first. */
    async due(now: Date, key?: string): Promise<OutboxRow[]> {
      const { rows } = key
        ? await db.query<OutboxRow>(
            'SELECT key, effect, approval_id, target_id, payload, attempts FROM approval_outbox WHERE key = $1',
            [key],
          )
        : await db.query<OutboxRow>(
            'SELECT key, effect, approval_id, target_id, payload, attempts FROM approval_outbox WHERE next_at <= $1 ORDER BY next_at, created_at LIMIT 100',
            [now],
          );
      return rows;
    },

    /** Rows not delivered yet. */
    async size(): Promise<number> {
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM approval_outbox');
      return Number(rows[0].n);
    },

    /** The owner took the effect or refused it: the row goes, and with a gate's the queue's 'delivering' record. */
    async done(r: OutboxRow): Promise<void> {
      await db.query(
        `WITH gone AS (DELETE FROM approval_outbox WHERE key = $1 RETURNING effect)
         DELETE FROM approval_decisions WHERE approval_id = $2 AND target_id = $3 AND state = 'delivering' AND EXISTS (SELECT 1 FROM gone WHERE effect = 'runs.decide')`,
        [r.key, r.approval_id, r.target_id],
      );
    },

    /** Not delivered now: the next attempt after the backoff of one more failed attempt, at the injected clock. */
    async later(r: OutboxRow, error: string, now: Date): Promise<void> {
      const next = new Date(now.getTime() + backoffSeconds(r.attempts + 1) * 1000);
      await db.query(
        'UPDATE approval_outbox SET attempts = attempts + 1, last_error = $2, next_at = $3 WHERE key = $1',
        [r.key, error, next],
      );
    },

    /** Makes every row due now (the owner came back on the bus). */
    async wake(now: Date): Promise<void> {
      await db.query('UPDATE approval_outbox SET next_at = $1 WHERE next_at > $1', [now]);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
