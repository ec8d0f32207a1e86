import type pg from 'pg';
import { HealthRollupSchema, type HealthRollup } from '../../../contracts/health.ts';

/** A `/health` answer as the partition tests read it: when it arrived and what it said. */
export interface HealthSeen {
  at: number;
  body: HealthRollup;
}

/** Status of one link component (`bus`, `database`) in a roll-up, or undefined when the roll-up has none. */
export const linkStatus = (h: HealthRollup, name: string) => h.components?.find((c) => c.name === name)?.status;

/**
 * Asks `url`/health back to back until `accept` holds for an answer; resolves with that answer and the time it arrived.
 * Each request may take the probes' limit (3 s) and more on a loaded machine; a request that fails (the node is gone)
 * counts as no answer. Gives up at `deadline` (epoch ms).
 */
export async function pollHealth(
  url: string,
  accept: (h: HealthRollup) => boolean,
  deadline: number,
): Promise<HealthSeen> {
  let last = 'no answer';
  while (Date.now() < deadline) {
    const body = await fetch(`${url}/health`, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) })
      .then(async (r) => HealthRollupSchema.parse(await r.json()))
      .catch((err: unknown) => {
        last = (err as Error).message;
        return undefined;
      });
    if (body && accept(body)) return { at: Date.now(), body };
    if (body) last = `${body.status}: ${body.detail ?? ''}`;
  }
  throw new Error(`/health of ${url} never answered as expected; last: ${last}`);
}

/**
 * Resolves once no unfinished run is owned by `node` (every run it held was taken over, or it held none), or at
 * `deadline`; answers whether the runs moved.
 */
export async function untilOwnedByOthers(q: pg.Client, node: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const { rows } = await q.query<{ n: string }>(
      `SELECT count(*) AS n FROM runs WHERE owner = $1 AND status IN ('running', 'awaiting_approval')`,
      [node],
    );
    if (rows[0].n === '0') return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** The unfinished runs `node` owns now (its share of the runs in flight). */
export async function ownedBy(q: pg.Client, node: string): Promise<number> {
  const { rows } = await q.query<{ n: string }>(
    `SELECT count(*) AS n FROM runs WHERE owner = $1 AND status IN ('running', 'awaiting_approval')`,
    [node],
  );
  return Number(rows[0].n);
}

/**
 * Why the runs of `node` did not move, as PostgreSQL sees it: its sessions by state (a session idle in a transaction
 * holds the run rows it locked, and the takeover skips locked rows) and its unfinished runs with their leases.
 */
export async function whyNotMoved(q: pg.Client, node: string): Promise<string> {
  const { rows: sessions } = await q.query<{ state: string; n: string; locks: string }>(
    `SELECT a.state, count(DISTINCT a.pid) AS n, count(l.*) FILTER (WHERE l.relation = 'runs'::regclass) AS locks
       FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid
      WHERE a.application_name = $1 GROUP BY a.state`,
    [node],
  );
  const { rows: runs } = await q.query<{ id: string; lease_ms: string }>(
    `SELECT id, round(extract(epoch FROM (now() - lease_until)) * 1000) AS lease_ms FROM runs
      WHERE owner = $1 AND status IN ('running', 'awaiting_approval')`,
    [node],
  );
  return (
    `its sessions: ${sessions.map((s) => `${s.n} ${s.state} (${s.locks} locks on runs)`).join(', ')}; ` +
    `its unfinished runs: ${runs.map((r) => `lease expired ${r.lease_ms} ms ago`).join(', ')}`
  );
}
