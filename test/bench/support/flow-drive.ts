import type { ServiceBroker } from 'moleculer';
import { call } from '../../../brokers/actions.ts';
import { RunsActions as R, type RunView } from '../../../contracts/actions/runs.actions.ts';
import { decideWithRetry, type DecideStats, type GateWatch } from '../../support/runs-client.ts';

/** One setup's figures. */
export interface FlowFigures {
  label: string;
  runs: number;
  completed: number;
  seconds: number;
  runsPerSecond: number;
  /** Approve call started -> the next phase's PhaseStarted, over every approval that started a phase. */
  latencyMs: { p50: number; p90: number; p99: number; max: number; n: number };
  retries: number;
}

const who = {
  approver: 'local:bench',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/**
 * Starts `runs` mech_v1 runs at once (round-robin over `nodes`; empty = this broker) and approves every gate as soon as
 * it opens (the `runs.gateOpened` broadcast, `runs.get` as fallback) with `runs.decide`, sent to the nodes in rotation.
 * Then reads each run's log and measures, per approval, the time from the call to the PhaseStarted it caused.
 */
export async function driveFlows(
  label: string,
  opts: { nodes: string[]; bus: ServiceBroker; watch: GateWatch; runs: number },
): Promise<FlowFigures> {
  const stats: DecideStats = { retries: 0, byCode: {} };
  const calledAt = new Map<string, number>();
  let rr = 0;
  const t0 = performance.now();
  const drive = async (i: number): Promise<RunView> => {
    const nodeID = opts.nodes.length ? opts.nodes[i % opts.nodes.length] : undefined;
    let view = await call(
      opts.bus,
      R.start,
      { design_flow: 'mech_v1', project_id: `bench-${i}`, goal: `bracket ${i}` },
      { nodeID, timeout: 120_000 },
    );
    const decided = new Set<string>();
    for (;;) {
      const gate = await opts.watch.next(view.id, decided, 300_000, 2000);
      if (!gate) return view;
      const idem = `${gate.gate_id}:approve`;
      calledAt.set(idem, Date.now());
      view = await decideWithRetry(
        opts.bus,
        opts.nodes,
        rr++,
        { run_id: view.id, decision: 'approve', identity: who, idem },
        stats,
        { timeoutMs: 60_000 },
      );
      decided.add(gate.gate_id);
      if (view.status === 'completed') return view;
    }
  };
  const done = await Promise.all(Array.from({ length: opts.runs }, (_, i) => drive(i)));
  const seconds = (performance.now() - t0) / 1000;

  const latencies: number[] = [];
  for (const run of done) {
    const log = (await call(opts.bus, R.events, { run_id: run.id })).events as {
      type: string;
      idem?: string;
      at: string;
    }[];
    log.forEach((e, i) => {
      const next = log[i + 1];
      if (e.type === 'GateDecided' && next?.type === 'PhaseStarted' && calledAt.has(e.idem!))
        latencies.push(Date.parse(next.at) - calledAt.get(e.idem!)!);
    });
  }
  latencies.sort((a, b) => a - b);
  return {
    label,
    runs: opts.runs,
    completed: done.filter((v) => v.status === 'completed').length,
    seconds,
    runsPerSecond: opts.runs / seconds,
    latencyMs: {
      p50: pct(latencies, 0.5),
      p90: pct(latencies, 0.9),
      p99: pct(latencies, 0.99),
      max: latencies.at(-1) ?? NaN,
      n: latencies.length,
    },
    retries: stats.retries,
  };
}

/** The figures as a small table. */
export function printFlowTable(rows: FlowFigures[]): void {
  const out = [
    'mode                                   runs  done  total s  runs/s  approve->next phase ms: p50    p90    p99    max   (n)   retries',
    ...rows.map(
      (r) =>
        `${r.label.padEnd(38)} ${String(r.runs).padStart(4)}  ${String(r.completed).padStart(4)}  ${r.seconds.toFixed(1).padStart(7)}  ${r.runsPerSecond.toFixed(2).padStart(6)}` +
        `                        ${[r.latencyMs.p50, r.latencyMs.p90, r.latencyMs.p99, r.latencyMs.max].map((x) => x.toFixed(0).padStart(6)).join(' ')}  (${r.latencyMs.n})  ${r.retries}`,
    ),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}
