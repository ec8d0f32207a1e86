import { batchLoader, batchWriter, type Db } from '../../brokers/db/index.ts';
import { FencedError, runAppender } from './run-append.ts';
import type { RunEvent } from './run.events.ts';
import type { RunState } from './run.types.ts';

export { FencedError };

export interface RunRow {
  id: string;
  project_id: string | null;
  design_flow: string;
  version_id: string;
  status: string;
  seq: number;
  epoch: string;
  owner: string | null;
  lease_until: Date | null;
  state: RunState;
  request: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/**
 * The run event log and its projection (notes/runtime.md "Per-run ownership"): a node claims a run by bumping its
 * epoch (the fencing token) when the previous lease expired; every append is one transaction conditional on that
 * epoch, with `(run_id, seq)` unique and an idempotency key per decision.
 */
export function createRunStore(db: Db, node: string, leaseMs: number) {
  // Claims asked for in one turn of the event loop (a burst of decisions on runs this node does not hold) are one
  // guarded UPDATE; each run is still taken only while free, ours or expired, and a locked row is still skipped.
  const claimOne = batchWriter<{ id: string; now: Date; force: boolean }, { epoch: number; seq: number }>({
    group: (c) => String(c.force),
    key: (c) => c.id,
    async write(force, cs) {
      const now = cs[0].now;
      const { rows } = await db.query<{ id: string; epoch: string; seq: number }>(
        `UPDATE runs r SET owner = $2, epoch = r.epoch + 1, lease_until = $3
         WHERE r.id IN (SELECT id FROM runs WHERE id = ANY($1::text[]) AND ($5 OR owner IS NULL OR owner = $2 OR lease_until IS NULL OR lease_until < $4) FOR UPDATE SKIP LOCKED)
         RETURNING r.id, r.epoch, r.seq`,
        [cs.map((c) => c.id), node, new Date(now.getTime() + leaseMs), now, force === 'true'],
      );
      return new Map(rows.map((r) => [r.id, { epoch: Number(r.epoch), seq: r.seq }]));
    },
  });
  const appendOne = runAppender(db, node, leaseMs);
  // The rows of the runs read in one turn of the event loop (a burst of decisions forwarded or not), one query.
  const rowOf = batchLoader(async (ids) => {
    const { rows } = await db.query<RunRow>('SELECT * FROM runs WHERE id = ANY($1::text[])', [ids]);
    return new Map(rows.map((r) => [r.id, r]));
  });
  // The logs of the runs loaded in one turn of the event loop, one query.
  const eventsOf = batchLoader(async (ids) => {
    const { rows } = await db.query<{ run_id: string; payload: RunEvent }>(
      'SELECT run_id, payload FROM run_events WHERE run_id = ANY($1::text[]) ORDER BY run_id, seq',
      [ids],
    );
    const out = new Map<string, RunEvent[]>();
    for (const r of rows) {
      const list = out.get(r.run_id);
      if (list) list.push(r.payload);
      else out.set(r.run_id, [r.payload]);
    }
    return out;
  });
  return {
    async create(
      row: {
        id: string;
        project_id: string | null;
        design_flow: string;
        version_id: string;
        request: Record<string, unknown>;
        state: RunState;
      },
      now: Date,
    ): Promise<number> {
      const { rows } = await db.query<{ epoch: string }>(
        `INSERT INTO runs (id, project_id, design_flow, version_id, status, seq, epoch, owner, lease_until, state, request, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 0, 1, $6, $7, $8, $9, $10, $10) RETURNING epoch`,
        [
          row.id,
          row.project_id,
          row.design_flow,
          row.version_id,
          row.state.status,
          node,
          new Date(now.getTime() + leaseMs),
          JSON.stringify(row.state),
          JSON.stringify(row.request),
          now,
        ],
      );
      return Number(rows[0].epoch);
    },

    get(id: string): Promise<RunRow | undefined> {
      return rowOf(id);
    },

    /**
     * Takes the run if it is free, already ours, or its lease expired; returns the new epoch, or undefined. A row locked
     * by an append in flight (its node may be stalled mid-transaction) is skipped, not waited for: that append may still
     * commit under the old epoch, and waiting would hold up every other takeover behind it.
     */
    async claim(id: string, now: Date, force = false): Promise<number | undefined> {
      return (await claimOne({ id, now, force }))?.epoch;
    },

    /**
     * `claim` and the run's log, read side by side (one round trip instead of two). The log is read again when it came
     * back shorter than the run's `seq` under the claim: an append of the former owner committed between the read and
     * the claim. Later appends are fenced by the new epoch, so a log as long as that `seq` is the whole log.
     */
    async claimWithLog(id: string, now: Date): Promise<{ epoch: number; events: RunEvent[] } | undefined> {
      const [claimed, read] = await Promise.all([claimOne({ id, now, force: false }), eventsOf(id)]);
      if (!claimed) return undefined;
      const events = (read?.length ?? 0) === claimed.seq ? (read ?? []) : ((await eventsOf(id)) ?? []);
      return { epoch: claimed.epoch, events };
    },

    /** Whether `epoch` is still the run's fencing token (a check before effects that other actors cannot fence). */
    async owns(id: string, epoch: number): Promise<boolean> {
      const { rows } = await db.query<{ epoch: string }>('SELECT epoch FROM runs WHERE id = $1', [id]);
      return rows[0] !== undefined && Number(rows[0].epoch) === epoch;
    },

    async events(id: string): Promise<RunEvent[]> {
      return (await eventsOf(id)) ?? [];
    },

    /**
     * Appends events under the owner's epoch; FencedError when the epoch moved on. One statement, so one transaction:
     * the run row is locked, and the events are inserted and the projection updated only if it still carries this
     * owner's epoch and this copy's sequence number. The appends of one event-loop turn share that statement, each
     * under its own run's check (run-append.ts).
     */
    async append(
      id: string,
      epoch: number,
      fromSeq: number,
      events: RunEvent[],
      state: RunState,
      now: Date,
      idem?: string,
    ): Promise<void> {
      const seen = await appendOne({ id, epoch, fromSeq, events, state, now, idem });
      if (seen.err) throw seen.err;
      const row = seen.row;
      if (!row || row.epoch !== epoch)
        throw new FencedError(`run ${id}: epoch ${epoch} is no longer the owner's (now ${row?.epoch ?? 'gone'})`);
      if (row.seq !== fromSeq) throw new FencedError(`run ${id}: log is at ${row.seq}, this copy at ${fromSeq}`);
    },

    /** Extends the leases of the runs this node holds; returns the ids it still owns. */
    async renew(ids: string[], now: Date): Promise<string[]> {
      if (!ids.length) return [];
      const { rows } = await db.query<{ id: string }>(
        'UPDATE runs SET lease_until = $3 WHERE id = ANY($1) AND owner = $2 RETURNING id',
        [ids, node, new Date(now.getTime() + leaseMs)],
      );
      return rows.map((r) => r.id);
    },

    /** Runs whose owner's lease expired while they still had work: the next owner resumes them. */
    async orphaned(now: Date, limit = 50): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM runs WHERE status IN ('running', 'awaiting_approval') AND (lease_until IS NULL OR lease_until < $1) ORDER BY updated_at LIMIT $2`,
        [now, limit],
      );
      return rows.map((r) => r.id);
    },

    async saveVersion(v: {
      version_id: string;
      flow_id: string;
      content_hash: string;
      definition: unknown;
      facts: unknown;
    }): Promise<void> {
      await db.query(
        'INSERT INTO flow_versions (version_id, flow_id, content_hash, definition, facts) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (version_id) DO NOTHING',
        [v.version_id, v.flow_id, v.content_hash, JSON.stringify(v.definition), JSON.stringify(v.facts)],
      );
    },
  };
}
export type RunStore = ReturnType<typeof createRunStore>;
