// Records real run histories into test/replay/*.json (STYLE R6): `node test/replay/record.ts`. Each scenario runs on
// the real runs, gates, twin and tool actors (one process, in-memory PGlite), with phase handlers that only write twin
// records, and is driven through runs.decide like a person would. Re-record only for a new scenario: the files exist
// to hold what older code did.
import crypto from 'node:crypto';
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, ServiceSchema } from 'moleculer';
import { createTwinAdapter } from '../../actors/adapters/twin/twin.adapter.ts';
import type { PhaseExecutor } from '../../actors/runs/executor.ts';
import { deliverableFindings } from '../../actors/gates/gate-checks.ts';
import { createGatesService } from '../../actors/gates/gates.service.ts';
import { createRunsService } from '../../actors/runs/runs.service.ts';
import { DEFAULT_LIMITS } from '../../actors/runs/run.types.ts';
import { createToolsService } from '../../actors/tools/tools.service.ts';
import { createTwinService } from '../../actors/twin/twin.service.ts';
import { call } from '../../brokers/actions.ts';
import type { BrokerHandle } from '../../brokers/broker.ts';
import { RunsActions as R, type RunView } from '../../contracts/actions/runs.actions.ts';
import { ToolsActions } from '../../contracts/actions/tools.actions.ts';
import { startActors } from '../support/actors.ts';
import { recordingExecutor } from '../support/recording-executor.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const who = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};
type Step = {
  decision: 'approve' | 'reject' | 'retry' | 'rework';
  reason?: string;
  to_phase?: string;
  before?: (h: BrokerHandle, v: RunView) => Promise<void>;
};

/** Phases each scenario's executor leaves empty (the gate opens not ready) or fails once transiently. */
const silent = new Map<string, string[]>([
  ['stall', ['intent']],
  ['stall-order-old', ['requirements']],
  ['stall-order-v1', ['requirements']],
]);
const transientOnce = new Map<string, string>([['retry', 'requirements']]);
const executor: PhaseExecutor = async (input) => {
  const scenario = String(input.project_id).replace(/^replay-/, '');
  if (silent.get(scenario)?.includes(input.phase.id))
    return { ok: true, summary: 'recorded nothing', deliverables: [] };
  if (transientOnce.get(scenario) === input.phase.id && input.attempt === 1)
    return { ok: false, kind: 'transient', message: 'tool registry timed out' };
  return recordingExecutor(input);
};

/** Gate checks of an older release: missing deliverables listed in database order, which flipped between attempts. */
function reorderingGates(): ServiceSchema {
  const base = createGatesService();
  return {
    ...base,
    actions: {
      evaluate: {
        ...(base.actions!.evaluate as object),
        async handler(ctx: Context<Parameters<typeof deliverableFindings>[1] & { attempt: number }>) {
          const findings = await deliverableFindings(ctx, ctx.params);
          if (ctx.params.attempt % 2 === 0) findings.reverse();
          return { findings, ready: !findings.some((f) => f.severity === 'error') };
        },
      },
    },
  };
}

/** A committed revision of the run's constraint set written outside the run: the run's draft no longer rebases cleanly. */
const moveLimitsHead = async (h: BrokerHandle, v: RunView) => {
  const out = await call(h.broker, ToolsActions.call, {
    name: 'twin.record_constraint_set',
    arguments: {
      project_id: v.project_id,
      name: 'Limits',
      constraints: [{ metric: 'mass_kg', limit: 1.5, unit: 'kg' }],
    },
    call_id: `rec-${crypto.randomUUID()}`,
    caller: { kind: 'stdio', transport: 'stdio' },
  });
  if (out.status !== 'success') throw new Error(`outside write failed: ${JSON.stringify(out)}`);
};

const ok: Step = { decision: 'approve' };
const again = (reason: string): Step => ({ decision: 'retry', reason });
const SCENARIOS: Record<string, { description: string; steps: Step[] }> = {
  'completed-mech-v1': {
    description: 'mech_v1 through six approved gates to completed',
    steps: [ok, ok, ok, ok, ok, ok],
  },
  retry: {
    description: "a transient phase failure retried as is, then a person's retry at the requirements gate; completed",
    steps: [ok, ok, again('tighten the mass limit'), ok, ok, ok, ok],
  },
  rework: {
    description:
      'rework from the feasibility gate back to needs; the needs, requirements and feasibility phases re-run; completed',
    steps: [ok, ok, ok, { decision: 'rework', reason: 'the need was misread', to_phase: 'needs' }, ok, ok, ok, ok, ok],
  },
  stall: {
    description:
      'the intent phase records nothing: the same not-ready findings three times in a row end the run as a design failure',
    steps: [again('try again'), again('and again')],
  },
  rejected: {
    description: 'approved intent, rejected at the needs gate',
    steps: [ok, { decision: 'reject', reason: 'not worth building' }],
  },
  'patch-conflict': {
    description:
      'the constraint set moved outside the run before the requirements approval: 409 patch conflict, the gate stays open, retry rebases; completed',
    steps: [ok, ok, { ...ok, before: moveLimitsHead }, again('rebase on the new limits'), ok, ok, ok, ok],
  },
  'stall-order-old': {
    description:
      'a run created before findings-order-insensitive-v1: the same two findings in flipped order are not a repeat (never stalled); rejected',
    steps: [ok, ok, again('retry 1'), again('retry 2'), { decision: 'reject', reason: 'stop here' }],
  },
  'stall-order-v1': {
    description:
      'the same as stall-order-old with findings-order-insensitive-v1: flipped order is a repeat, stalled, then the stall stop',
    steps: [ok, ok, again('retry 1'), again('retry 2')],
  },
};

async function until<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const v = await f();
    if (v !== undefined) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function record(name: string, h: BrokerHandle): Promise<void> {
  const sc = SCENARIOS[name];
  let view = await call(h.broker, R.start, {
    design_flow: 'mech_v1',
    project_id: `replay-${name}`,
    goal: `replay scenario ${name}`,
  });
  const decided = new Set<string>();
  for (const [i, step] of sc.steps.entries()) {
    view = await until(`gate ${i} of ${name}`, async () => {
      const v = await call(h.broker, R.get, { run_id: view.id });
      return v.gate && !decided.has(v.gate.gate_id) ? v : undefined;
    });
    await step.before?.(h, view);
    const d = {
      run_id: view.id,
      decision: step.decision,
      reason: step.reason ?? '',
      to_phase: step.to_phase ?? '',
      identity: who,
      idem: `${view.gate!.gate_id}:${step.decision}`,
    };
    const refused = await call(h.broker, R.decide, d).then(
      () => undefined,
      (e: { type?: string }) => e.type,
    );
    if (refused && refused !== 'PATCH_CONFLICT') throw new Error(`${name}: step ${i} refused with ${refused}`);
    if (!refused) decided.add(view.gate!.gate_id);
  }
  const final = await until(`${name} to end`, async () => {
    const v = await call(h.broker, R.get, { run_id: view.id });
    return ['completed', 'failed', 'rejected', 'cancelled'].includes(v.status) ? v : undefined;
  });
  const db = await h.infra.db();
  const events = (
    await db.query<{ seq: number; payload: unknown }>(
      'SELECT seq, payload FROM run_events WHERE run_id = $1 ORDER BY seq',
      [view.id],
    )
  ).rows;
  const row = (
    await db.query<{ state: unknown; status: string }>('SELECT state, status FROM runs WHERE id = $1', [view.id])
  ).rows[0];
  const commit = execSync('git rev-parse --short HEAD', { cwd: here }).toString().trim();
  const file = {
    name,
    description: sc.description,
    recorded: { at: new Date().toISOString(), commit, limits: DEFAULT_LIMITS },
    final_status: row.status,
    events,
    final_state: row.state,
  };
  fs.writeFileSync(path.join(here, `${name}.json`), `${JSON.stringify(file, null, 1)}\n`);
  process.stdout.write(`${name}: ${events.length} events, ${final.status}\n`);
}

const only = process.argv.slice(2);
for (const [names, patches, gates] of [
  [['completed-mech-v1', 'retry', 'rework', 'stall', 'rejected', 'patch-conflict'], undefined, createGatesService],
  [['stall-order-v1'], undefined, reorderingGates],
  [['stall-order-old'], [], reorderingGates],
] as const) {
  const todo = names.filter((n) => !only.length || only.includes(n));
  if (!todo.length) continue;
  const h = await startActors([
    (infra) => createRunsService(infra, { executor, patches: patches as string[] | undefined }),
    gates,
    createTwinService,
    createToolsService,
    createTwinAdapter,
  ]);
  for (const n of todo) await record(n, h);
  await h.stop();
}
