import { batchLoader, type Queryable } from '../../../brokers/db/index.ts';
import type { RunView } from '../../../contracts/actions/runs.actions.ts';
import type { RunLimits, RunState } from '../../runs/run.types.ts';
import { runView } from '../../runs/run.view.ts';
import { asDecision, type GateInput, type UndecidedGate } from '../approval.items.ts';

/** Which runs a query reads: every project (undefined), only runs without one (null), or one project. */
export type ProjectScope = string | null | undefined;

/** A run the list considers: its log position (the cache key of its view) and, for ended runs, the last gate event. */
interface RunKey {
  id: string;
  seq: number;
  last_gate: (UndecidedGate & { type: string; at: string }) | null;
}

interface DecisionRow {
  approval_id: string;
  target_id: string;
  state: 'saved' | 'delivering';
  decision: unknown;
}

/** Views kept per process, at most this many (a run's view at a log position never changes). */
const CACHE_MAX = 50_000;

const scopeSql = (scope: ProjectScope, param: number) => (scope === undefined ? '' : scope === null ? ' AND r.project_id IS NULL' : ` AND r.project_id = $${param}`);

/**
 * The gate source of the queue: the runs projection (table runs, read only) folded into run views by the runs actor's
 * own pure view, the last gate event of ended runs (a gate opened and never decided), and the queue's own rows in
 * approval_decisions. A list reads only ids and log positions (`seq`); a run's view is computed once per position and
 * kept (every append moves `seq` in the same transaction as the state, so a kept view is never stale). Reading the
 * projection lets the queue show gates while the runs actor is down (its decisions then wait, the 503 row).
 */
export function createGateSource(db: Queryable, limits: RunLimits) {
  const views = new Map<string, { seq: number; view: RunView }>();
  const lastGate = `LEFT JOIN LATERAL (
      SELECT e.payload || jsonb_build_object('type', e.type) AS last_gate FROM run_events e
      WHERE r.status IN ('cancelled', 'failed') AND e.run_id = r.id AND e.type IN ('GateOpened', 'GateDecided')
      ORDER BY e.seq DESC LIMIT 1) g ON true`;

  /** The views of these runs at their positions: cached ones as they are, the others read and folded now. */
  async function viewsOf(keys: RunKey[]): Promise<Map<string, RunView>> {
    const missing = keys.filter((k) => views.get(k.id)?.seq !== k.seq).map((k) => k.id);
    if (missing.length) {
      const { rows } = await db.query<{ id: string; seq: number; state: RunState; goal: unknown }>("SELECT id, seq, state, request->'goal' AS goal FROM runs WHERE id = ANY($1::text[])", [missing]);
      for (const r of rows) {
        views.delete(r.id);
        views.set(r.id, { seq: r.seq, view: runView(r.state, { goal: r.goal ?? '' }, limits) });
      }
      for (const id of views.keys()) {
        if (views.size <= CACHE_MAX) break;
        views.delete(id);
      }
    }
    return new Map(keys.flatMap((k) => (views.has(k.id) ? [[k.id, views.get(k.id)!.view] as const] : [])));
  }

  async function inputs(keys: RunKey[]): Promise<GateInput[]> {
    if (!keys.length) return [];
    const [byId, mine] = await Promise.all([
      viewsOf(keys),
      db.query<DecisionRow>('SELECT approval_id, target_id, state, decision FROM approval_decisions WHERE approval_id = ANY($1::text[])', [keys.map((k) => `gate:${k.id}`)]),
    ]);
    const rowsOf = new Map<string, DecisionRow[]>();
    for (const d of mine.rows) rowsOf.set(d.approval_id, [...(rowsOf.get(d.approval_id) ?? []), d]);
    return keys.filter((k) => byId.has(k.id)).map((k) => toInput(byId.get(k.id)!, k.last_gate, rowsOf.get(`gate:${k.id}`) ?? []));
  }

  /** Runs with their last gate event and this queue's decision rows, for many ids at once (a burst of decisions). */
  const oneRow = batchLoader(async (ids) => {
    const { rows } = await db.query<RunKey & { state: RunState; goal: unknown; mine: DecisionRow[] }>(
      `SELECT r.id, r.seq, r.state, r.request->'goal' AS goal, g.last_gate,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('approval_id', d.approval_id, 'target_id', d.target_id, 'state', d.state, 'decision', d.decision)), '[]'::jsonb)
          FROM approval_decisions d WHERE d.approval_id = 'gate:' || r.id) AS mine
       FROM runs r ${lastGate} WHERE r.id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  });

  return {
    /** Runs that may carry an item of this status: parked at a gate, ended with one undecided, or with decisions. */
    async list(status: 'pending' | 'decided' | 'all', scope: ProjectScope): Promise<GateInput[]> {
      const which =
        status === 'pending'
          ? `(r.status = 'awaiting_approval' OR (r.status IN ('cancelled', 'failed') AND g.last_gate->>'type' = 'GateOpened'))`
          : status === 'decided'
            ? `(r.status <> 'awaiting_approval' AND (jsonb_array_length(r.state->'decisions') > 0 OR g.last_gate IS NOT NULL))`
            : `(r.status = 'awaiting_approval' OR jsonb_array_length(r.state->'decisions') > 0 OR g.last_gate IS NOT NULL)`;
      const sql = `SELECT r.id, r.seq, g.last_gate FROM runs r ${lastGate} WHERE ${which}${scopeSql(scope, 1)} ORDER BY r.created_at DESC`;
      return inputs((await db.query<RunKey>(sql, scope ? [scope] : [])).rows);
    },

    /** How many pending gate items have no project (the list's unscoped_count), counted in SQL. */
    async countPendingUnscoped(): Promise<number> {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM runs r ${lastGate} WHERE r.project_id IS NULL AND (r.status = 'awaiting_approval' OR (r.status = 'failed' AND g.last_gate->>'type' = 'GateOpened'
           AND NOT EXISTS (SELECT 1 FROM approval_decisions d WHERE d.approval_id = 'gate:' || r.id AND d.target_id = g.last_gate->>'gate_id' AND d.state = 'saved')))`,
      );
      return Number(rows[0].n);
    },

    /** One run's gate input, or undefined for an unknown run: one round trip, shared by the reads of one event-loop turn. */
    async one(runId: string): Promise<GateInput | undefined> {
      const r = await oneRow(runId);
      if (!r) return undefined;
      if (views.get(r.id)?.seq !== r.seq) views.set(r.id, { seq: r.seq, view: runView(r.state, { goal: r.goal ?? '' }, limits) });
      return toInput(views.get(r.id)!.view, r.last_gate, r.mine);
    },
  };
}

function toInput(view: RunView, g: RunKey['last_gate'], mine: DecisionRow[]): GateInput {
  const undecided = g && g.type === 'GateOpened' && !view.gate ? { phase: g.phase, gate_id: g.gate_id, attempt: g.attempt, findings: g.findings ?? [], ready: g.ready, opened_at: g.at } : undefined;
  const pick = (state: DecisionRow['state']) => {
    const row = mine.find((d) => d.state === state);
    const decision = row ? asDecision(row.decision) : null;
    return row && decision ? { gate_id: row.target_id, decision } : undefined;
  };
  return { view, undecided, saved: pick('saved'), delivering: pick('delivering') };
}
