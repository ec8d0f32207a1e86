import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { createGatesService } from '../../../actors/gates/gates.service.ts';
import { createRunsService } from '../../../actors/runs/runs.service.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { createTwinAdapter } from '../../../actors/adapters/twin/twin.adapter.ts';
import { RunsActions as R, type RunView } from '../../../contracts/actions/runs.actions.ts';
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

/** The run once its open gate is `phase`. */
async function atGate(runId: string, phase: string): Promise<RunView> {
  await expect
    .poll(async () => (await call(h.broker, R.get, { run_id: runId })).gate?.phase ?? null, {
      timeout: 30_000,
      interval: 50,
    })
    .toBe(phase);
  return call(h.broker, R.get, { run_id: runId });
}

let n = 0;
const decide = (runId: string, decision: 'approve' | 'rework', to_phase = '') =>
  call(h.broker, R.decide, {
    run_id: runId,
    decision,
    reason: decision === 'rework' ? `rework ${++n}` : '',
    to_phase,
    identity: who,
    idem: `k-${++n}`,
  });

/** SPEC Limits: retries and reworks per gate, 3 each. Reworks taken at one gate leave another gate's budget whole. */
describe('rework budget per gate', () => {
  it("uses up the needs gate's 3 reworks; the requirements gate still has its own 3", async () => {
    const run = await call(h.broker, R.start, { design_flow: 'mech_v1', project_id: 'p-budget', goal: 'a bracket' });
    await atGate(run.id, 'intent');
    await decide(run.id, 'approve');
    for (let cycle = 1; cycle <= 3; cycle++) {
      const needs = await atGate(run.id, 'needs');
      expect(needs.gate?.reworks_left).toBe(4 - cycle);
      await decide(run.id, 'rework', 'intent');
      await atGate(run.id, 'intent');
      await decide(run.id, 'approve');
    }
    const needs = await atGate(run.id, 'needs');
    expect(needs.gate).toMatchObject({ reworks_left: 0, rework_targets: [] });
    expect(needs.gate?.allowed_decisions).not.toContain('rework');
    const refused = await decide(run.id, 'rework', 'intent').catch((e: Error & { type?: string }) => e);
    expect(refused).toMatchObject({ type: 'CONFLICT', message: expect.stringMatching(/reworks of needs are used up/) });
    await decide(run.id, 'approve');

    // Another gate: its own budget, untouched by the three reworks taken at needs.
    const reqs = await atGate(run.id, 'requirements');
    expect(reqs.gate).toMatchObject({ reworks_left: 3 });
    expect(reqs.gate?.allowed_decisions).toContain('rework');
    expect(reqs.gate?.rework_targets).toContain('needs');
    const after = await decide(run.id, 'rework', 'needs');
    expect(after.decisions.filter((d) => d.decision === 'rework')).toHaveLength(4);
    expect(after.reworks).toBe(4);
    await atGate(run.id, 'needs');
  }, 120_000);
});
