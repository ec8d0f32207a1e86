import { action } from '../../brokers/actions.ts';
import { batchLoader, type Queryable } from '../../brokers/db/index.ts';
import type { Infra } from '../../brokers/infra.ts';
import { RunsQueueActions as Q, type GateRow } from '../../contracts/actions/approval-sources.actions.ts';
import type { RunView } from '../../contracts/actions/runs.actions.ts';
import type { RunLimits, RunState } from './run.types.ts';
import { runView } from './run.view.ts';

/** Views kept per process, at most this many (a run's view at a log position never changes). */
const CACHE_MAX = 50_000;

/** The last gate event of ended runs: a gate opened and never decided before the run ended, or the last decided one. */
const LAST_GATE = `LEFT JOIN LATERAL (
    SELECT e.payload || jsonb_build_object('type', e.type) AS last_gate FROM run_events e
    WHERE r.status IN ('cancelled', 'failed') AND e.run_id = r.id AND e.type IN ('GateOpened', 'GateDecided')
    ORDER BY e.seq DESC LIMIT 1) g ON true`;

const scopeSql = (scope: string | null | undefined) =>
  scope === undefined ? '' : scope === null ? ' AND r.project_id IS NULL' : ' AND r.project_id = $1';

/**
 * The runs actor's query actions for the approvals queue (contracts/actions/approval-sources.actions.ts) and its flow
 * approval write. Reads the runs table (the projection of every run's log, moved in the same transaction as its
 * `seq`) and folds views with the actor's own pure view, once per log position: a list reads ids and positions only.
 */
export function approvalReadActions(infra: Infra, limits: RunLimits) {
  const views = new Map<string, { seq: number; view: RunView }>();
  const db = () => infra.db();

  const viewOf = (id: string, seq: number, state: RunState, goal: unknown): RunView => {
    const kept = views.get(id);
    if (kept?.seq === seq) return kept.view;
    const view = runView(state, { goal: goal ?? '' }, limits);
    views.delete(id);
    views.set(id, { seq, view });
    for (const k of views.keys()) {
      if (views.size <= CACHE_MAX) break;
      views.delete(k);
    }
    return view;
  };

  /** Rows of these runs: cached views as they are, the others read and folded now. */
  async function rowsOf(
    q: Queryable,
    keys: { id: string; seq: number; last_gate: GateRow['last_gate'] }[],
  ): Promise<GateRow[]> {
    const missing = keys.filter((k) => views.get(k.id)?.seq !== k.seq).map((k) => k.id);
    if (missing.length) {
      const { rows } = await q.query<{ id: string; seq: number; state: RunState; goal: unknown }>(
        "SELECT id, seq, state, request->'goal' AS goal FROM runs WHERE id = ANY($1::text[])",
        [missing],
      );
      for (const r of rows) viewOf(r.id, r.seq, r.state, r.goal);
    }
    return keys.flatMap((k) => {
      const kept = views.get(k.id);
      return kept ? [{ id: k.id, seq: kept.seq, view: kept.view, last_gate: k.last_gate }] : [];
    });
  }

  /** Many runs at once (the decisions of one event-loop turn share one read). */
  const oneRow = batchLoader(async (ids) => {
    const { rows } = await (
      await db()
    ).query<{ id: string; seq: number; state: RunState; goal: unknown; last_gate: GateRow['last_gate'] }>(
      `SELECT r.id, r.seq, r.state, r.request->'goal' AS goal, g.last_gate FROM runs r ${LAST_GATE} WHERE r.id = ANY($1::text[])`,
      [ids],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        { id: r.id, seq: r.seq, view: viewOf(r.id, r.seq, r.state, r.goal), last_gate: r.last_gate } satisfies GateRow,
      ]),
    );
  });

  return {
    queueGates: action(Q.gates, async ({ status, project_id }) => {
      const which =
        status === 'pending'
          ? `(r.status = 'awaiting_approval' OR (r.status IN ('cancelled', 'failed') AND g.last_gate->>'type' = 'GateOpened'))`
          : status === 'decided'
            ? `(r.status <> 'awaiting_approval' AND (jsonb_array_length(r.state->'decisions') > 0 OR g.last_gate IS NOT NULL))`
            : `(r.status = 'awaiting_approval' OR jsonb_array_length(r.state->'decisions') > 0 OR g.last_gate IS NOT NULL)`;
      const q = await db();
      const sql = `SELECT r.id, r.seq, g.last_gate FROM runs r ${LAST_GATE} WHERE ${which}${scopeSql(project_id)} ORDER BY r.created_at DESC`;
      const { rows } = await q.query<{ id: string; seq: number; last_gate: GateRow['last_gate'] }>(
        sql,
        project_id ? [project_id] : [],
      );
      return { rows: await rowsOf(q, rows) };
    }),

    queueGatesOf: action(Q.gatesOf, async ({ run_ids }) => ({
      rows: (await Promise.all(run_ids.map(oneRow))).filter((r): r is GateRow => r !== undefined),
    })),

    queueUnscoped: action(Q.unscoped, async () => {
      const q = await db();
      const [awaiting, ended] = await Promise.all([
        q.query<{ n: string }>(
          `SELECT count(*) AS n FROM runs r WHERE r.project_id IS NULL AND r.status = 'awaiting_approval'`,
        ),
        q.query<{ id: string; gate_id: string }>(
          `SELECT r.id, g.last_gate->>'gate_id' AS gate_id FROM runs r ${LAST_GATE} WHERE r.project_id IS NULL AND r.status = 'failed' AND g.last_gate->>'type' = 'GateOpened'`,
        ),
      ]);
      return { awaiting: Number(awaiting.rows[0].n), ended_open: ended.rows };
    }),

    settleFlowApproval: action(Q.settleFlow, async (p) => {
      const q = await db();
      const status = p.approved ? 'approved' : 'rejected';
      const r =
        p.kind === 'flow_patch'
          ? await q.query(
              `UPDATE flow_patches SET status = $3, decided_by = $4, decided_at = $5 WHERE run_id = $1 AND version = $2 AND status = 'pending'`,
              [String(p.detail.run_id), Number(p.detail.version), status, p.decided_by, p.decided_at],
            )
          : await q.query(
              `UPDATE flow_proposals SET status = $2, decided_by = $3, decided_at = $4 WHERE version_id = $1 AND status = 'pending'`,
              [String(p.detail.version_id), status, p.decided_by, p.decided_at],
            );
      return { moved: r.rowCount > 0 };
    }),
  };
}
