import { call, type Caller } from '../../../brokers/actions.ts';
import { batchLoader, type Queryable } from '../../../brokers/db/index.ts';
import type { Logger } from '../../../brokers/logger.ts';
import { RunsQueueActions, type GateRow } from '../../../contracts/actions/approval-sources.actions.ts';
import { asDecision, gateItem, type GateInput } from '../approval.items.ts';
import { unreachable } from '../unreachable.ts';

/** Which runs a query reads: every project (undefined), only runs without one (null), or one project. */
export type ProjectScope = string | null | undefined;

interface DecisionRow {
  approval_id: string;
  target_id: string;
  state: 'saved' | 'delivering';
  decision: unknown;
}

/**
 * The gate source of the queue: the runs actor's query actions (`runs.queueGates`, `runs.queueGatesOf`: run views at
 * their log positions and the last gate event of ended runs) joined with the queue's own rows in approval_decisions.
 * Every row read is kept in the queue's own table approval_gate_rows (written off the request path, only when its log
 * position moved), which is what the queue shows of gates while the runs actor is not reachable.
 */
export function createGateSource(db: Queryable, log: Logger, bus: Caller) {
  const kept = new Map<string, number>();
  let toKeep = new Map<string, GateRow>();
  let writing: Promise<void> = Promise.resolve();
  const refreshing = new Set<Promise<unknown>>();

  /** Keeps rows whose log position moved in approval_gate_rows: one statement per batch, one batch at a time. */
  function keep(rows: GateRow[]): void {
    for (const r of rows) if (kept.get(r.id) !== r.seq) toKeep.set(r.id, r);
    if (!toKeep.size) return;
    writing = writing
      .then(async () => {
        const batch = [...toKeep.values()];
        toKeep = new Map();
        if (!batch.length) return;
        await db.query(
          `INSERT INTO approval_gate_rows (run_id, project_id, seq, row, updated_at)
         SELECT x.id, x.row->'view'->>'project_id', x.seq, x.row, now() FROM jsonb_to_recordset($1::jsonb) AS x(id text, seq integer, row jsonb)
         ON CONFLICT (run_id) DO UPDATE SET project_id = EXCLUDED.project_id, seq = EXCLUDED.seq, row = EXCLUDED.row, updated_at = now()
         WHERE approval_gate_rows.seq < EXCLUDED.seq`,
          [JSON.stringify(batch.map((r) => ({ id: r.id, seq: r.seq, row: r })))],
        );
        for (const r of batch) kept.set(r.id, r.seq);
      })
      .catch((err: unknown) => log.warn({ err }, 'gate rows not kept for the queue'));
  }

  /** The rows kept last time, for a runs actor that is not reachable now. */
  async function keptRows(scope: ProjectScope, ids?: string[]): Promise<GateRow[]> {
    const where = ids
      ? 'run_id = ANY($1::text[])'
      : scope === undefined
        ? 'true'
        : scope === null
          ? 'project_id IS NULL'
          : 'project_id = $1';
    const { rows } = await db.query<{ row: GateRow }>(
      `SELECT row FROM approval_gate_rows WHERE ${where}`,
      ids ? [ids] : scope ? [scope] : [],
    );
    return rows.map((r) => r.row).sort((a, b) => (b.view.created_at ?? '').localeCompare(a.view.created_at ?? ''));
  }

  /** Reads from the runs actor, or what was kept when it is not reachable. */
  async function read(ask: () => Promise<{ rows: GateRow[] }>, fallback: () => Promise<GateRow[]>): Promise<GateRow[]> {
    const rows = await ask().then(
      (r) => r.rows,
      (err: unknown) => {
        if (unreachable(err)) return undefined;
        throw err;
      },
    );
    if (rows === undefined) return fallback();
    keep(rows);
    return rows;
  }

  async function mine(runIds: string[]): Promise<Map<string, DecisionRow[]>> {
    const { rows } = await db.query<DecisionRow>(
      'SELECT approval_id, target_id, state, decision FROM approval_decisions WHERE approval_id = ANY($1::text[])',
      [runIds.map((id) => `gate:${id}`)],
    );
    const out = new Map<string, DecisionRow[]>();
    for (const d of rows) out.set(d.approval_id, [...(out.get(d.approval_id) ?? []), d]);
    return out;
  }
  /** The queue's own rows of the runs read in one event-loop turn (a burst of decisions), one query. */
  const mineOf = batchLoader(async (approvalIds) => mine(approvalIds.map((a) => a.slice('gate:'.length))));

  async function inputs(rows: GateRow[]): Promise<GateInput[]> {
    if (!rows.length) return [];
    const own = await mine(rows.map((r) => r.id));
    return rows.map((r) => toInput(r, own.get(`gate:${r.id}`) ?? []));
  }

  /** The runs of one event-loop turn's reads share one call (a burst of decisions). */
  const oneRow = batchLoader(async (ids) => {
    const rows = await read(
      () => call(bus, RunsQueueActions.gatesOf, { run_ids: ids }),
      () => keptRows(undefined, ids),
    );
    return new Map(rows.map((r) => [r.id, r]));
  });

  return {
    /** Runs that may carry an item of this status: parked at a gate, ended with one undecided, or with decisions. */
    async list(via: Caller, status: 'pending' | 'decided' | 'all', scope: ProjectScope): Promise<GateInput[]> {
      return inputs(
        await read(
          () => call(via, RunsQueueActions.gates, { status, project_id: scope }),
          () => keptRows(scope),
        ),
      );
    },

    /** How many pending gate items have no project (the list's unscoped_count). */
    async countPendingUnscoped(via: Caller): Promise<number> {
      const u = await call(via, RunsQueueActions.unscoped, {}).catch((err: unknown) => {
        if (unreachable(err)) return undefined;
        throw err;
      });
      if (!u) return (await inputs(await keptRows(null))).map(gateItem).filter((i) => i?.status === 'pending').length;
      if (!u.ended_open.length) return u.awaiting;
      const own = await mine(u.ended_open.map((e) => e.id));
      return (
        u.awaiting +
        u.ended_open.filter(
          (e) => !(own.get(`gate:${e.id}`) ?? []).some((d) => d.state === 'saved' && d.target_id === e.gate_id),
        ).length
      );
    },

    /** One run's gate input, or undefined for an unknown run. */
    async one(runId: string): Promise<GateInput | undefined> {
      // The run's row and the queue's own rows are read side by side (one round trip, not two).
      const [r, own] = await Promise.all([oneRow(runId), mineOf(`gate:${runId}`)]);
      return r ? toInput(r, own ?? []) : undefined;
    },

    /** Reads the run's row again after a decision, off the request path, and keeps it (`settled` waits for it). */
    refresh(runId: string): void {
      const r = oneRow(runId)
        .then(() => writing)
        .catch((err: unknown) => log.warn({ err, run_id: runId }, 'gate row not read again after a decision'));
      refreshing.add(r);
      void r.finally(() => refreshing.delete(r));
    },

    /** Waits for the rows being kept (the actor stops). */
    settled: async () => {
      await Promise.all([...refreshing]);
      await writing;
    },
  };
}

function toInput(r: GateRow, mine: DecisionRow[]): GateInput {
  const { view, last_gate: g } = r;
  const undecided =
    g && g.type === 'GateOpened' && !view.gate
      ? {
          phase: g.phase,
          gate_id: g.gate_id,
          attempt: g.attempt,
          findings: g.findings ?? [],
          ready: g.ready,
          opened_at: g.at,
        }
      : undefined;
  const pick = (state: DecisionRow['state']) => {
    const row = mine.find((d) => d.state === state);
    const decision = row ? asDecision(row.decision) : null;
    return row && decision ? { gate_id: row.target_id, decision } : undefined;
  };
  return { view, undecided, saved: pick('saved'), delivering: pick('delivering') };
}
