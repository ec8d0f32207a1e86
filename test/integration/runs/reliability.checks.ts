/** One gate decision the reliability test sends. */
export interface Step {
  phase: string;
  decision: 'approve' | 'retry' | 'rework';
  to_phase?: string;
}

/** A `run_events` row as the test reads it back. */
export interface EventRow {
  run_id: string;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  epoch: number;
  node: string;
  idem: string | null;
  created_at: Date;
}

/** What the test read back from Postgres, and what it knows it sent. */
export interface LogFacts {
  events: EventRow[];
  runs: { id: string; status: string; project_id: string }[];
  baselines: { project_id: string; n: string }[];
  /** Per run, the idempotency keys of every decision the test got a 2xx for. */
  acked: Map<string, Set<string>>;
  plans: Map<string, Step[]>;
  /** The disrupted node, when, and (SIGSTOP) when it ran again: it may write again only after that, under a new epoch. */
  dead: string;
  killAt: Date;
  resumedAt?: Date;
  /**
   * When the drafts of these runs still open in the twin were written. Every run completed, so every draft of a live
   * owner was committed or closed; only a tool call that was in flight in the stalled node can land later (the twin
   * does not check the run's epoch), and only after the node was resumed.
   */
  openDrafts: Date[];
}

/** Problems found (empty = pass) and the takeover figures. */
export interface LogReport {
  problems: string[];
  gateDecided: number;
  deadRunsTakenOver: number;
  firstNewOwnerWriteMs: number;
  deadLastWriteMs: number;
  /** Open drafts written after the stalled node resumed: late writes of its in-flight tool calls. */
  lateDrafts: number;
}

/**
 * The reliability test's verdict over the event logs: gapless sequences, every acknowledged decision exactly once and
 * nothing else, decisions in the planned order, the run completed, epochs that only grow and each belong to one node,
 * no write of the dead node after the kill or after a newer epoch, and one baseline per approval.
 */
export function checkLogs(f: LogFacts): LogReport {
  const problems: string[] = [];
  const byRun = new Map<string, EventRow[]>();
  for (const e of f.events) byRun.set(e.run_id, [...(byRun.get(e.run_id) ?? []), e]);
  const baselines = new Map(f.baselines.map((b) => [b.project_id, Number(b.n)]));
  let gateDecided = 0;
  let deadRunsTakenOver = 0;
  let firstNewOwnerWrite = Infinity;
  let deadLastWrite = -Infinity;

  for (const run of f.runs) {
    const log = byRun.get(run.id) ?? [];
    const say = (m: string) => problems.push(`${run.id}: ${m}`);
    log.forEach((e, i) => e.seq !== i + 1 && say(`seq ${e.seq} at position ${i + 1} (gap or duplicate)`));
    const last = log.at(-1);
    if (run.status !== 'completed' || last?.type !== 'RunEnded' || last.payload.status !== 'completed')
      say(`ended ${run.status}, last event ${last?.type} ${JSON.stringify(last?.payload.status)}`);

    const decided = log.filter((e) => e.type === 'GateDecided');
    gateDecided += decided.length;
    const idems = decided.map((e) => String(e.payload.idem));
    const acked = f.acked.get(run.id) ?? new Set();
    for (const k of new Set(idems))
      if (idems.filter((x) => x === k).length > 1)
        say(`decision ${k} applied ${idems.filter((x) => x === k).length} times`);
    for (const k of acked) if (!idems.includes(k)) say(`acknowledged decision ${k} is not in the log`);
    for (const k of idems) if (!acked.has(k)) say(`decision ${k} in the log was never acknowledged`);
    for (const e of decided)
      if (e.idem !== e.payload.idem)
        say(`GateDecided seq ${e.seq}: idem column ${e.idem} != payload ${String(e.payload.idem)}`);
    const plan = f.plans.get(run.id) ?? [];
    const got = decided.map((e) => `${String(e.payload.phase)}:${String(e.payload.decision)}`);
    const want = plan.map((s) => `${s.phase}:${s.decision}`);
    if (got.join() !== want.join()) say(`decisions ${got.join(', ')} != planned ${want.join(', ')}`);
    const approvals = plan.filter((s) => s.decision === 'approve').length;
    if ((baselines.get(run.project_id) ?? 0) !== approvals)
      say(`${baselines.get(run.project_id) ?? 0} baselines for ${approvals} approvals`);

    const owners = new Map<number, string>();
    for (let i = 0; i < log.length; i++) {
      const e = log[i];
      if (i > 0 && e.epoch < log[i - 1].epoch)
        say(`epoch went back from ${log[i - 1].epoch} to ${e.epoch} at seq ${e.seq}`);
      if (owners.has(e.epoch) && owners.get(e.epoch) !== e.node)
        say(`epoch ${e.epoch} written by ${owners.get(e.epoch)} and ${e.node}`);
      owners.set(e.epoch, e.node);
    }
    const deadEvents = log.filter((e) => e.node === f.dead);
    const silentUntil = f.resumedAt ?? new Date(8.64e15);
    for (const e of deadEvents)
      if (e.created_at > f.killAt && e.created_at < silentUntil)
        say(
          `seq ${e.seq} written by the ${f.resumedAt ? 'paused' : 'dead'} node ${e.created_at.getTime() - f.killAt.getTime()} ms after the disruption`,
        );
    const beforeKill = deadEvents.filter((e) => e.created_at <= f.killAt);
    if (beforeKill.length) {
      const deadEpoch = Math.max(...beforeKill.map((e) => e.epoch));
      const lastDeadSeq = Math.max(...beforeKill.map((e) => e.seq));
      deadLastWrite = Math.max(deadLastWrite, ...beforeKill.map((e) => e.created_at.getTime()));
      const after = log.filter((e) => e.epoch > deadEpoch);
      if (after.some((e) => e.seq < lastDeadSeq)) say(`the dead node wrote seq ${lastDeadSeq} after a newer epoch`);
      const afterKill = after.filter((e) => e.created_at >= f.killAt);
      if (afterKill.length) {
        deadRunsTakenOver++;
        firstNewOwnerWrite = Math.min(firstNewOwnerWrite, afterKill[0].created_at.getTime());
      }
    }
  }
  for (const id of byRun.keys()) if (!f.runs.some((r) => r.id === id)) problems.push(`events of unknown run ${id}`);
  const late = f.openDrafts.filter((at) => f.resumedAt && at >= f.resumedAt);
  if (f.openDrafts.length > late.length)
    problems.push(`${f.openDrafts.length - late.length} drafts still open in the twin after every run completed`);
  return {
    problems,
    gateDecided,
    deadRunsTakenOver,
    firstNewOwnerWriteMs: firstNewOwnerWrite - f.killAt.getTime(),
    deadLastWriteMs: f.killAt.getTime() - deadLastWrite,
    lateDrafts: late.length,
  };
}
