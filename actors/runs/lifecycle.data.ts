import { call, type Caller } from '../../brokers/actions.ts';
import { TwinActions, type RunRecord } from '../../contracts/actions/twin.actions.ts';
import type { RunChanges } from '../../contracts/design-flows.ts';
import type { StaleEntry } from './lifecycle.ts';
import type { RunState } from './run.types.ts';

/**
 * What a run's lifecycle view and change list read from the twin, through the twin's query actions (the runs actor
 * never reads the twin's tables): what the run produced, what went stale since, its approved requirements, and the
 * current evidence.
 */

type ProducedRow = Omit<RunRecord, 'created_at'> & { created_at: Date };

const ref = (key: string | null, rev: number | null) => (key && rev ? `${key}@${rev}` : null);

async function produced(via: Caller, runId: string) {
  const { records, baselines } = await call(via, TwinActions.runRecords, { run_id: runId });
  return { rows: records.map((r): ProducedRow => ({ ...r, created_at: new Date(r.created_at) })), baselines };
}

/** What the run approved (item revisions) or recorded that is no longer current: superseded since, or marked stale. */
export function staleOf(rows: ProducedRow[]): StaleEntry[] {
  const out: StaleEntry[] = [];
  const kept = (r: ProducedRow) => r.revision_status === null || ['approved', 'committed'].includes(r.revision_status);
  const runLatest = new Map<string, number>();
  for (const r of rows)
    if (r.item_key && r.revision && kept(r))
      runLatest.set(r.item_key, Math.max(runLatest.get(r.item_key) ?? 0, r.revision));
  for (const r of rows) {
    // A revision the run itself replaced later (rework) is history, not staleness.
    if (!kept(r) || (r.item_key && r.revision && r.revision < (runLatest.get(r.item_key) ?? 0))) continue;
    const superseded = r.item_key && r.revision && r.head_revision !== null && r.head_revision > r.revision;
    if (superseded)
      out.push({
        node_id: r.id,
        ref: ref(r.item_key, r.revision),
        phase: r.phase,
        // The head's change reason says who superseded it and why (decision 0100: "revised by run X as its request asked").
        reason: `${ref(r.item_key, r.revision)} was superseded by ${ref(r.item_key, r.head_revision)}${
          r.head_change_reason ? ` (${r.head_change_reason})` : ''
        }`,
      });
    else if (r.stale)
      out.push({
        node_id: r.id,
        ref: ref(r.item_key, r.revision),
        phase: r.phase,
        reason: r.stale_reason ?? `${r.node_type} ${r.name} is stale`,
      });
  }
  return out;
}

/**
 * Everything the lifecycle view reads from the twin for a run: what went stale, and the run's own evidence, the same
 * `twin.gateEvidence` its gates check (decision 0080: one evidence selection, one evaluator).
 */
export async function loadRunEvidence(via: Caller, s: RunState) {
  const [{ rows }, current] = await Promise.all([
    produced(via, s.id),
    call(via, TwinActions.gateEvidence, { project_id: s.project_id, run_id: s.id }),
  ]);
  const evidence = {
    constraints: current.constraints,
    result: current.result ?? undefined,
    geometry: current.geometry ?? undefined,
    verification: current.verification ?? undefined,
    staleEvidence: current.stale,
    waivers: current.waivers,
  };
  const limits: string[] = [];
  if (!evidence.constraints.length)
    limits.push('the run recorded no constraint set: nothing is verified against a limit');
  else if (!evidence.geometry)
    limits.push('the run has no committed geometry: geometry and analysis requirements have no data');
  else if (!evidence.result)
    limits.push(
      'no valid (not stale) simulation result analyses the current geometry: analysis requirements have no data',
    );
  return { stale: staleOf(rows), ...evidence, limits };
}

/**
 * The item revisions a run produced and what each gate did with them. A revision belongs to the first gate of its
 * phase decided after it was written, else to its phase's open gate; approved revisions name their gate and baseline.
 */
export async function runChanges(via: Caller, s: RunState): Promise<RunChanges> {
  const { rows: all, baselines } = await produced(via, s.id);
  const rows = all.filter((r) => r.item_key);
  const baselineOf = new Map(baselines.map((b) => [b.gate_id, b.id]));
  const gateName = (phase: string) => s.flow.definition.phases.find((p) => p.id === phase)?.gate.name ?? phase;
  const gates: RunChanges['gates'] = s.decisions.map((d) => ({
    gate_id: d.gate_id,
    phase: d.phase,
    name: gateName(d.phase),
    decision: d.decision,
    reason: d.reason,
    approver: d.approver,
    decided_at: d.decided_at,
    outcome: d.decision === 'approve' ? ('approved' as const) : ('closed' as const),
    baseline_id: baselineOf.get(d.gate_id) ?? null,
    revisions: [],
  }));
  if (s.gate) {
    gates.push({
      gate_id: s.gate.gate_id,
      phase: s.gate.phase,
      name: gateName(s.gate.phase),
      decision: null,
      reason: '',
      approver: null,
      decided_at: null,
      outcome: 'waiting',
      baseline_id: null,
      revisions: [],
    });
  }
  const revisions = rows.map((r) => {
    const status = r.revision_status ?? 'committed';
    const gate =
      (r.gate && gates.find((g) => g.gate_id === r.gate)) ||
      gates.find((g) => g.phase === r.phase && (g.decided_at === null || new Date(g.decided_at) >= r.created_at));
    if (gate) gate.revisions.push(ref(r.item_key, r.revision)!);
    const outcome = ['approved', 'committed'].includes(status)
      ? ('approved' as const)
      : status === 'draft'
        ? ('waiting' as const)
        : ('closed' as const);
    return {
      node_id: r.id,
      key: r.item_key!,
      item_type: r.node_type,
      name: r.name,
      revision: r.revision ?? 0,
      ref: ref(r.item_key, r.revision) ?? r.item_key!,
      status,
      phase: r.phase,
      gate: r.gate ?? gate?.gate_id ?? null,
      status_reason: r.status_reason,
      outcome,
      baseline_id: outcome === 'approved' && r.gate ? (baselineOf.get(r.gate) ?? null) : null,
      superseded: !!(r.revision && r.head_revision !== null && r.head_revision > r.revision && outcome === 'approved'),
      created_at: r.created_at.toISOString(),
    };
  });
  return { run_id: s.id, project_id: s.project_id, revisions, gates };
}
