import { describe, expect, it } from 'vitest';
import { createProjectsService } from '../../../actors/projects/projects.service.ts';
import { STEP_BASE64, recordingExecutor, startFlowNode, type RecordedDesign } from '../../support/flow-node.ts';
import { httpJson, type Json } from '../../support/http-raw.ts';
import { callTool, okData, useNode } from '../../support/tools.ts';

/**
 * Issue 28 point 2 over HTTP (decision 0080): the gate findings and the lifecycle table show the one evaluator's
 * output for the run's own evidence. Run 1 of a project commits a 200 mm bracket; run 2 of the same project, before it
 * has any geometry, must not show run 1's bracket, and at its simulation gate (which enforces constraints) every
 * requirement has the same status in the gate findings and the lifecycle table, the blocking ones first.
 */
// The flow node with the projects actor: the compliance checklist answers only for a project that exists.
const node = useNode((env) =>
  startFlowNode({ executor: recordingExecutor(), env, extra: [(infra) => createProjectsService(infra)] }),
);
const http = (method: string, path: string, body?: unknown) => httpJson(`${node.url}${path}`, method, body);

const start = async (project: string, design: RecordedDesign, flow = 'mech_v1') => {
  const r = await http('POST', '/v1/runs', {
    design_flow: flow,
    project_id: project,
    goal: 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip',
    context: { design },
  });
  expect(r.status).toBe(201);
  return r.json.id as string;
};
const gateOf = (id: string) =>
  expect.poll(async () => (await http('GET', `/v1/runs/${id}`)).json.gate?.phase ?? null, {
    timeout: 15_000,
    interval: 50,
  });
async function approveThrough(id: string, phases: string[]) {
  for (const phase of phases) {
    await gateOf(id).toBe(phase);
    const r = await http('POST', `/v1/runs/${id}/approval`, { decision: 'approve' });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  }
}
/** The status a gate finding states for requirement `id` (pass when the gate has no finding for it). */
function findingStatus(findings: Json[], id: string) {
  const f = findings.find((x) => new RegExp(`^[a-z ]+: ${id} \\(`).test(x.message));
  if (!f) return 'pass';
  return f.message.startsWith('violated:') ? 'fail' : f.message.startsWith('stale:') ? 'stale' : 'not_verified';
}

/** The checklist's words for the evaluator's statuses. */
const CHECKLIST_OF: Record<string, string> = {
  verified: 'pass',
  failed: 'fail',
  unverified: 'not_verified',
  stale: 'stale',
  waived: 'waived',
};

/**
 * Each requirement item of the project's compliance checklist from the constraint sets of `rows` (a run's lifecycle
 * table: since decision 0100 each run has its own sets) with its status in the evaluator's words.
 */
async function checklistStatuses(project: string, rows: Json[]) {
  const sets = new Set(rows.map((r) => String(r.constraint_set).split('@')[0]));
  const checklist = (await http('GET', `/v1/compliance/${project}/checklist`)).json;
  const items = (checklist.items as Json[]).filter(
    (i) => i.source === 'requirement' && sets.has(i.requirement.set_key),
  );
  return items.map((i) => [i.requirement.id, CHECKLIST_OF[i.status]]).sort();
}

/** The pending gate item of the run: its `verdicts` as [id, status], in the evaluator's order. */
async function itemVerdicts(run: string) {
  const item = (await http('GET', `/v1/approvals/gate:${run}`)).json;
  expect(item.verdicts, JSON.stringify(item.detail)).toBeDefined();
  return (item.verdicts as Json[]).map((v) => [v.id, v.status]);
}

/** A person waives requirement `id` of the run's constraint set: a design change proposed, then approved (as decided). */
async function waive(project: string, run: string, id: string, why: string) {
  const cs = (await http('GET', `/v1/twin/runs/${run}/changes`)).json.revisions.find(
    (r: Json) => r.item_type === 'constraint_set',
  );
  const change = await okData(
    callTool(node.handle.broker, 'twin.propose_change', {
      project_id: project,
      target: cs.key,
      title: `Waive ${id}`,
      rationale: why,
      changes: { waivers: { [id]: why } },
    }),
  );
  const decided = await http('POST', `/v1/approvals/${change.approval_id}/decision`, {
    decision: 'approve',
    reason: 'accepted',
  });
  expect(decided.status, JSON.stringify(decided.json)).toBe(200);
}

const REQS: RecordedDesign['constraints'] = [
  { metric: 'length_mm', limit: 250, unit: 'mm' },
  { metric: 'max_displacement_mm', limit: 0.1, unit: 'mm' },
  { metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa' },
  { metric: 'mass_kg', limit: 1, unit: 'kg' },
];

describe('one evaluator: the gate findings and the lifecycle table agree (issue 28 point 2)', () => {
  it("shows no other run's evidence, and gives each requirement one status, blocking first, at the gate and in the table", async () => {
    const P = (await http('POST', '/v1/projects', { name: 'One evaluator' })).json.id as string;
    const run1 = await start(P, { constraints: [{ metric: 'length_mm', limit: 250, unit: 'mm' }] });
    await approveThrough(run1, ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation']);

    const run2 = await start(P, { constraints: REQS, stressMpa: 60 });
    await approveThrough(run2, ['intent', 'needs']);
    await gateOf(run2).toBe('requirements');
    // Run 2 has requirements but no geometry yet: run 1's 200 mm bracket is not its evidence.
    const early = (await http('GET', `/v1/runs/${run2}/lifecycle`)).json;
    const length = early.requirements.find((r: Json) => r.metric === 'length_mm');
    expect(length, JSON.stringify(early.requirements)).toMatchObject({
      status: 'no_data',
      verdict: 'not_verified',
      value: null,
    });

    await approveThrough(run2, ['requirements']);
    await gateOf(run2).toBe('feasibility');
    // Run 2's requirements are the project's now, its geometry not yet: compliance must not verify them on run 1's.
    const mid = (await http('GET', `/v1/runs/${run2}/lifecycle`)).json.requirements as Json[];
    expect(mid.find((r) => r.metric === 'length_mm')).toMatchObject({ verdict: 'not_verified' });
    expect(await checklistStatuses(P, mid)).toEqual(mid.map((r) => [r.id, r.verdict]).sort());
    await approveThrough(run2, ['feasibility', 'design']);
    await gateOf(run2).toBe('simulation');
    const gate = (await http('GET', `/v1/runs/${run2}`)).json.gate;
    const table = (await http('GET', `/v1/runs/${run2}/lifecycle`)).json.requirements as Json[];
    expect(table.map((r) => [r.metric, r.verdict, r.value])).toEqual([
      ['max_displacement_mm', 'fail', 0.2],
      ['mass_kg', 'not_verified', null],
      ['length_mm', 'pass', 200],
      ['max_von_mises_mpa', 'pass', 60],
    ]);
    for (const r of table) expect(findingStatus(gate.findings, r.id), r.id).toBe(r.verdict);
    expect(gate.ready).toBe(false);
    // The compliance checklist of the project (its committed heads: run 2's approved requirements and geometry).
    expect(await checklistStatuses(P, table)).toEqual(table.map((r) => [r.id, r.verdict]).sort());
    // The approval item of the gate carries the same table, every requirement in the same order (decision 0080).
    expect(await itemVerdicts(run2)).toEqual(table.map((r) => [r.id, r.verdict]));

    // A person waives the failing deflection on the run's constraint set: waived in every view, not blocking.
    const defl = table[0].id as string;
    await waive(P, run2, defl, 'the deflection limit is a stiffness wish; the customer accepts 0.2 mm');
    const waived = (await http('GET', `/v1/runs/${run2}/lifecycle`)).json.requirements as Json[];
    expect(waived.map((r) => [r.metric, r.verdict])).toEqual([
      ['mass_kg', 'not_verified'],
      ['length_mm', 'pass'],
      ['max_displacement_mm', 'waived'],
      ['max_von_mises_mpa', 'pass'],
    ]);
    expect(await itemVerdicts(run2)).toEqual(waived.map((r) => [r.id, r.verdict]));
    expect(await checklistStatuses(P, waived)).toEqual(waived.map((r) => [r.id, r.verdict]).sort());
    // The gate evaluated again (retry): no finding for the waived requirement, the others as the table says.
    const retried = await http('POST', `/v1/runs/${run2}/approval`, { decision: 'retry', reason: 'waived' });
    expect(retried.status, JSON.stringify(retried.json)).toBe(200);
    await expect
      .poll(async () => (await http('GET', `/v1/runs/${run2}`)).json.gate?.attempt ?? 0, { timeout: 15_000 })
      .toBe(2);
    const again = (await http('GET', `/v1/runs/${run2}`)).json.gate;
    for (const r of waived)
      expect(findingStatus(again.findings, r.id), r.id).toBe(r.verdict === 'waived' ? 'pass' : r.verdict);

    // A person commits a new revision of run 2's geometry without a new solve: its results are stale evidence now.
    const cad = (await http('GET', `/v1/twin/runs/${run2}/changes`)).json.revisions.find(
      (r: Json) => r.item_type === 'cad_model',
    );
    await okData(
      callTool(node.handle.broker, 'twin.commit_geometry', {
        project_id: P,
        name: 'Bracket',
        item_key: cad.key,
        step_base64: STEP_BASE64,
        properties: { bounding_box: { min: [0, 0, 0], max: [210, 20, 10] } },
      }),
    );
    const after = (await http('GET', `/v1/runs/${run2}/lifecycle`)).json.requirements as Json[];
    expect(after.map((r) => [r.metric, r.verdict, r.value])).toEqual([
      ['max_von_mises_mpa', 'stale', null],
      ['mass_kg', 'not_verified', null],
      ['length_mm', 'pass', 210],
      ['max_displacement_mm', 'waived', null],
    ]);
    expect(await checklistStatuses(P, after)).toEqual(after.map((r) => [r.id, r.verdict]).sort());
    expect(await itemVerdicts(run2)).toEqual(after.map((r) => [r.id, r.verdict]));
  }, 120_000);

  it('hardware_v1: at the simulation gate the failing envelope comes first and each status matches its finding', async () => {
    const P = (await http('POST', '/v1/projects', { name: 'One evaluator, hardware' })).json.id as string;
    const run = await start(
      P,
      {
        constraints: [
          { metric: 'width_mm', limit: 50, unit: 'mm' },
          { metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa' },
          { metric: 'length_mm', limit: 150, unit: 'mm' },
        ],
      },
      'hardware_v1',
    );
    const before = ['intent', 'needs', 'requirements', 'feasibility', 'architecture', 'concept_selection', 'design'];
    await approveThrough(run, [...before, 'electronics', 'firmware']);
    await gateOf(run).toBe('simulation');
    const gate = (await http('GET', `/v1/runs/${run}`)).json.gate;
    const table = (await http('GET', `/v1/runs/${run}/lifecycle`)).json.requirements as Json[];
    // The 200 mm recorded geometry fails length; no simulation result states the stress (the phase records a decision).
    expect(table.map((r) => [r.metric, r.verdict, r.value])).toEqual([
      ['max_von_mises_mpa', 'not_verified', null],
      ['length_mm', 'fail', 200],
      ['width_mm', 'pass', 20],
    ]);
    for (const r of table) expect(findingStatus(gate.findings, r.id), r.id).toBe(r.verdict);
    expect(gate.ready).toBe(false);
    expect(await checklistStatuses(P, table)).toEqual(table.map((r) => [r.id, r.verdict]).sort());
    expect(await itemVerdicts(run)).toEqual(table.map((r) => [r.id, r.verdict]));
  }, 120_000);
});
