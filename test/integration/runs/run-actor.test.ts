import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { createGatesService } from '../../../actors/gates/gates.service.ts';
import { createRunsService } from '../../../actors/runs/runs.service.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { createTwinAdapter } from '../../../actors/adapters/twin/twin.adapter.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import type { RunView } from '../../../contracts/actions/runs.actions.ts';
import { startActors } from '../../support/actors.ts';
import { useNode } from '../../support/tools.ts';
import { recordingExecutor } from '../../support/recording-executor.ts';

const h = useNode((env) =>
  startActors(
    [
      (infra) => createRunsService(infra, { executor: recordingExecutor }),
      createGatesService,
      createTwinService,
      createTwinAdapter,
      createToolsService,
    ],
    env,
  ),
);

const who = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};
const waitGate = (runId: string) =>
  expect.poll(async () => (await call(h.broker, R.get, { run_id: runId })).gate?.phase ?? null, {
    timeout: 15_000,
    interval: 50,
  });

describe('the runs actor on a real event log', () => {
  it('drives a mech_v1 run through six approved gates, committing drafts into a baseline at each', async () => {
    const run = await call(h.broker, R.start, { design_flow: 'mech_v1', project_id: 'p-run', goal: 'a bracket' });
    expect(run.phases[0].status).toBe('running');
    let view: RunView = run;
    for (const phase of ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation']) {
      await waitGate(run.id).toBe(phase);
      view = await call(h.broker, R.get, { run_id: run.id });
      expect(view.gate).toMatchObject({
        phase,
        ready: true,
        allowed_decisions: expect.arrayContaining(['approve', 'reject', 'retry']),
      });
      view = await call(h.broker, R.decide, {
        run_id: run.id,
        decision: 'approve',
        identity: who,
        idem: `${run.id}:${phase}`,
      });
    }
    expect(view.status).toBe('completed');
    const baselines = await call(h.broker, TwinActions.baselines, { project_id: 'p-run' });
    expect(baselines.total).toBe(6);
    const events = (await call(h.broker, R.events, { run_id: run.id })).events.map((e) => e.type);
    expect(events.filter((t) => t === 'GateDecided')).toHaveLength(6);
    expect(events.at(-1)).toBe('RunEnded');
  });

  it('applies a repeated decision once and refuses a decision on a run with no open gate', async () => {
    const run = await call(h.broker, R.start, { design_flow: 'mech_v1', project_id: 'p-idem', goal: 'x' });
    await waitGate(run.id).toBe('intent');
    const d = { run_id: run.id, decision: 'approve' as const, identity: who, idem: 'same-key' };
    await call(h.broker, R.decide, d);
    const again = await call(h.broker, R.decide, d);
    expect(again.decisions.filter((x) => x.idem === 'same-key')).toHaveLength(1);
    await waitGate(run.id).toBe('needs');
    await call(h.broker, R.decide, {
      run_id: run.id,
      decision: 'reject',
      reason: 'not needed',
      identity: who,
      idem: 'rej',
    });
    const err = await call(h.broker, R.decide, {
      run_id: run.id,
      decision: 'approve',
      identity: who,
      idem: 'late',
    }).catch((e: Error & { type?: string }) => e);
    expect((err as { type?: string }).type).toBe('CONFLICT');
  });

  it('opens a not-ready gate when a deliverable is missing and refuses approve', async () => {
    const h2 = await startActors([
      (infra) =>
        createRunsService(infra, { executor: async () => ({ ok: true, summary: 'did nothing', deliverables: [] }) }),
      createGatesService,
      createTwinService,
    ]);
    try {
      const run = await call(h2.broker, R.start, { design_flow: 'mech_v1', project_id: 'p-empty', goal: 'x' });
      await expect
        .poll(async () => (await call(h2.broker, R.get, { run_id: run.id })).gate?.ready ?? null, { timeout: 10_000 })
        .toBe(false);
      const v = await call(h2.broker, R.get, { run_id: run.id });
      expect(v.gate?.findings).toEqual([
        { kind: 'missing_deliverable', severity: 'error', message: 'no intent was recorded in phase intent' },
      ]);
      const err = await call(h2.broker, R.decide, {
        run_id: run.id,
        decision: 'approve',
        identity: who,
        idem: 'a',
      }).catch((e: Error & { type?: string }) => e);
      expect((err as { type?: string }).type).toBe('CONFLICT');
    } finally {
      await h2.stop();
    }
  });
});
