import { vi } from 'vitest';
import type pg from 'pg';
import type { ServiceBroker } from 'moleculer';
import { call } from '../../../brokers/actions.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { decideWithRetry, type DecideStats, type GateWatch } from '../../support/runs-client.ts';
import type { EventRow, LogFacts, Step } from './reliability.checks.ts';

const who = {
  approver: 'local:reliability',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};
const PHASES = ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation'];

/** The decisions run `i` gets, in order: mostly approvals, every tenth with a retry, every tenth with a rework on the way. */
export function planOf(i: number): Step[] {
  const ok = (phase: string): Step => ({ phase, decision: 'approve' });
  if (i % 10 === 3)
    return [ok('intent'), ok('needs'), { phase: 'requirements', decision: 'retry' }, ...PHASES.slice(2).map(ok)];
  if (i % 10 === 7)
    return [
      ...PHASES.slice(0, 3).map(ok),
      { phase: 'feasibility', decision: 'rework', to_phase: 'needs' },
      ...PHASES.slice(1).map(ok),
    ];
  return PHASES.map(ok);
}

/** One disruption scenario over the three nodes. */
export interface Scenario {
  tag: string;
  runs: number;
  bus: ServiceBroker;
  watch: GateWatch;
  db: pg.Client;
  nodes: string[];
  victim: number;
  /** Which share of the decisions is acknowledged before the disruption. */
  disruptAfter: number;
  /** Disrupts the victim (SIGKILL, or SIGSTOP then SIGCONT); resolves when it is over. */
  disrupt(): Promise<void>;
  /**
   * Called once every run was driven to its end and the disruption is over; resolves when nothing of the victim can
   * write any more (its stale work over, the process gone, its database sessions closed), so the logs read after it
   * are final.
   */
  settle(): Promise<void>;
  /** Attempts per decision before the driver gives up (decideWithRetry's default when unset). */
  maxAttempts?: number;
}

/** The logs to check and the figures to print. */
export interface ScenarioResult {
  facts: LogFacts;
  stats: DecideStats;
  latencies: number[];
  totalMs: number;
  decisions: number;
  takeoverMs: number;
}

/**
 * Starts `runs` mech_v1 runs round-robin over the nodes and drives each through its plan: waits for each gate, sends
 * `runs.decide` to the next node in rotation (every fifth run twice at once through two nodes, same idempotency key),
 * retrying with the same key. Disrupts the victim after a share of the decisions, then reads the logs back for `checkLogs`.
 */
export async function runScenario(s: Scenario): Promise<ScenarioResult> {
  const t0 = performance.now();
  const stats: DecideStats = { retries: 0, byCode: {} };
  const acked = new Map<string, Set<string>>();
  const latencies: number[] = [];
  const total = Array.from({ length: s.runs }, (_, i) => planOf(i).length).reduce((a, b) => a + b, 0);
  let count = 0;
  let killAt: Date | undefined;
  let takeover: Promise<number> | undefined;
  let disrupted: Promise<void> | undefined;
  // Each run starts on the next node, so the nodes own a share each (starts are not idempotent: one long timeout, no retry).
  const started = await Promise.all(
    Array.from({ length: s.runs }, (_, i) =>
      call(
        s.bus,
        R.start,
        { design_flow: 'mech_v1', project_id: `p-${s.tag}-${i}`, goal: `bracket ${i}` },
        { nodeID: s.nodes[i % s.nodes.length], timeout: 30_000 },
      ),
    ),
  );
  let rr = 0;
  const drive = async (runId: string, i: number) => {
    const decided = new Set<string>();
    acked.set(runId, new Set());
    for (const step of planOf(i)) {
      const gate = await s.watch.next(runId, decided);
      if (!gate) throw new Error(`${runId} ended before its ${step.phase} gate`);
      if (gate.phase !== step.phase) throw new Error(`${runId}: gate of ${gate.phase} opened, expected ${step.phase}`);
      const idem = `${gate.gate_id}:${step.decision}`;
      const reason = step.decision === 'approve' ? '' : `${step.decision} for the test`;
      const params = {
        run_id: runId,
        decision: step.decision,
        reason,
        to_phase: step.to_phase ?? '',
        identity: who,
        idem,
      };
      const t = performance.now();
      const first = rr++;
      const sends = i % 5 === 0 ? [first, first + 1] : [first];
      await Promise.all(
        sends.map((n) =>
          decideWithRetry(s.bus, s.nodes, n % s.nodes.length, params, stats, { maxAttempts: s.maxAttempts }),
        ),
      );
      latencies.push(performance.now() - t);
      acked.get(runId)!.add(idem);
      decided.add(gate.gate_id);
      if (++count === Math.floor(total * s.disruptAfter)) {
        killAt = new Date();
        disrupted = s.disrupt();
        takeover = measureTakeover(s.db, s.nodes[s.victim], killAt);
      }
    }
  };
  await Promise.all(started.map((r, i) => drive(r.id, i)));
  const totalMs = performance.now() - t0;
  const takeoverMs = await takeover!;
  await disrupted;
  await s.settle();
  const ids = started.map((r) => r.id);
  const { rows: events } = await s.db.query<EventRow>(
    'SELECT run_id, seq, type, payload, epoch::int AS epoch, node, idem, created_at FROM run_events WHERE run_id = ANY($1) ORDER BY run_id, seq',
    [ids],
  );
  const { rows: runs } = await s.db.query<{ id: string; status: string; project_id: string }>(
    'SELECT id, status, project_id FROM runs WHERE id = ANY($1)',
    [ids],
  );
  const { rows: baselines } = await s.db.query<{ project_id: string; n: string }>(
    'SELECT project_id, count(*) AS n FROM twin_baselines WHERE run_id = ANY($1) GROUP BY project_id',
    [ids],
  );
  const { rows: drafts } = await s.db.query<{ created_at: Date }>(
    `SELECT created_at FROM twin_nodes WHERE run_id = ANY($1) AND revision_status = 'draft'`,
    [ids],
  );
  const plans = new Map(started.map((r, i) => [r.id, planOf(i)]));
  return {
    facts: {
      events,
      runs,
      baselines,
      acked,
      plans,
      dead: s.nodes[s.victim],
      killAt: killAt!,
      openDrafts: drafts.map((d) => d.created_at),
    },
    stats,
    latencies: latencies.sort((a, b) => a - b),
    totalMs,
    decisions: count,
    takeoverMs,
  };
}

/**
 * Resolves once the process has exited and none of its database sessions is left (the node's connections carry its id
 * as application_name). A session finishes the statement it is running before it goes: after that, nothing it sent can
 * write.
 */
export async function gone(q: pg.Client, node: string, exited: Promise<unknown>): Promise<void> {
  await exited;
  await vi.waitFor(
    async () => {
      const { rows } = await q.query<{ n: string }>(
        'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1',
        [node],
      );
      if (rows[0].n !== '0') throw new Error(`the database sessions of ${node} have not ended`);
    },
    { timeout: 120_000, interval: 50 },
  );
}

/** Time from the disruption until no unfinished run is owned by the victim any more (polls the runs table; NaN after 20 s). */
async function measureTakeover(q: pg.Client, victim: string, at: Date): Promise<number> {
  while (Date.now() - at.getTime() < 20_000) {
    const rows = await q
      .query<{ n: string }>(
        `SELECT count(*) AS n FROM runs WHERE owner = $1 AND status IN ('running', 'awaiting_approval')`,
        [victim],
      )
      .then(
        (r) => r.rows,
        () => undefined,
      );
    if (!rows) return NaN; // the test ended (failed) and closed the connection
    if (rows[0].n === '0') return Date.now() - at.getTime();
    await new Promise((r) => setTimeout(r, 50));
  }
  return NaN;
}
