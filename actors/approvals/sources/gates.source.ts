import type { Queryable } from '../../../brokers/db/index.ts';
import type { RunView } from '../../../contracts/actions/runs.actions.ts';
import type { RunLimits, RunState } from '../../runs/run.types.ts';
import { runView } from '../../runs/run.view.ts';
import { asDecision, type GateInput, type UndecidedGate } from '../approval.items.ts';

/** Which runs a query reads: every project (undefined), only runs without one (null), or one project. */
export type ProjectScope = string | null | undefined;

interface RunRow {
  id: string;
  state: RunState;
  request: Record<string, unknown>;
  last_gate: (UndecidedGate & { type: string; at: string }) | null;
}

interface DecisionRow {
  approval_id: string;
  target_id: string;
  state: 'saved' | 'delivering';
  decision: unknown;
}

const scopeSql = (scope: ProjectScope, param: number) => (scope === undefined ? '' : scope === null ? ' AND r.project_id IS NULL' : ` AND r.project_id = $${param}`);

/**
 * The gate source of the queue: the runs projection (table runs, read only) folded into run views by the runs actor's
 * own pure view, the last gate event of ended runs (a gate opened and never decided), and the queue's own rows in
 * approval_decisions. Reading the projection keeps the list to one indexed query per source and lets the queue show
 * gates while the runs actor is down (its decisions then wait in approval_decisions, the 503 row).
 */
export function createGateSource(db: Queryable, limits: RunLimits) {
  const lastGate = `LEFT JOIN LATERAL (
      SELECT e.payload || jsonb_build_object('type', e.type) AS last_gate FROM run_events e
      WHERE r.status IN ('cancelled', 'failed') AND e.run_id = r.id AND e.type IN ('GateOpened', 'GateDecided')
      ORDER BY e.seq DESC LIMIT 1) g ON true`;

  async function withDecisions(rows: RunRow[]): Promise<GateInput[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => `gate:${r.id}`);
    const { rows: mine } = await db.query<DecisionRow>('SELECT approval_id, target_id, state, decision FROM approval_decisions WHERE approval_id = ANY($1::text[])', [ids]);
    const byRun = new Map<string, DecisionRow[]>();
    for (const d of mine) byRun.set(d.approval_id, [...(byRun.get(d.approval_id) ?? []), d]);
    return rows.map((r) => toInput(r, byRun.get(`gate:${r.id}`) ?? [], limits));
  }

  return {
    /** Runs that may carry an item of this status: parked at a gate, ended with one undecided, or with decisions. */
    async list(status: 'pending' | 'decided' | 'all', scope: ProjectScope): Promise<GateInput[]> {
      const params = scope ? [scope] : [];
      const which =
        status === 'pending'
          ? `(r.status = 'awaiting_approval' OR (r.status IN ('cancelled', 'failed') AND g.last_gate->>'type' = 'GateOpened'))`
          : status === 'decided'
            ? `(r.status <> 'awaiting_approval' AND (jsonb_array_length(r.state->'decisions') > 0 OR g.last_gate IS NOT NULL))`
            : `(r.status = 'awaiting_approval' OR jsonb_array_length(r.state->'decisions') > 0 OR g.last_gate IS NOT NULL)`;
      const { rows } = await db.query<RunRow>(`SELECT r.id, r.state, r.request, g.last_gate FROM runs r ${lastGate} WHERE ${which}${scopeSql(scope, 1)} ORDER BY r.created_at DESC`, params);
      return withDecisions(rows);
    },

    /** One run's gate input, or undefined for an unknown run. */
    async one(runId: string): Promise<GateInput | undefined> {
      const { rows } = await db.query<RunRow>(`SELECT r.id, r.state, r.request, g.last_gate FROM runs r ${lastGate} WHERE r.id = $1`, [runId]);
      return rows[0] ? (await withDecisions(rows))[0] : undefined;
    },
  };
}

function toInput(r: RunRow, mine: DecisionRow[], limits: RunLimits): GateInput {
  const view: RunView = runView(r.state, r.request ?? {}, limits);
  const g = r.last_gate;
  const undecided = g && g.type === 'GateOpened' && !view.gate ? { phase: g.phase, gate_id: g.gate_id, attempt: g.attempt, findings: g.findings ?? [], ready: g.ready, opened_at: g.at } : undefined;
  const pick = (state: DecisionRow['state']) => {
    const row = mine.find((d) => d.state === state);
    const decision = row ? asDecision(row.decision) : null;
    return row && decision ? { gate_id: row.target_id, decision } : undefined;
  };
  return { view, undecided, saved: pick('saved'), delivering: pick('delivering') };
}
