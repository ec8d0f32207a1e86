import { describe, expect, it } from 'vitest';
import { httpJson, type Json } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';

/**
 * hardware_v1 over HTTP on a real node (CAD kernel included) with the reference request and the deterministic
 * handlers: each gate approved by a person through the approvals queue; architecture and concept selection record
 * their derived constraint sets, trade study and decisions in the twin, design commits the chosen bracket as a draft
 * cad_model, and the run then goes on to electronics.
 */
const t = useTestNode({ realDb: true, workspace: 'hw-arch-ws-', startTimeoutMs: 120_000 });

const http = (method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
  httpJson(`${t.url}${p}`, method, body, headers);
const DASH = { 'x-service-surface': 'dashboard' };
const GOAL =
  'a wall-mounted environmental sensor: an 80 x 60 x 30 mm enclosure of 0.4 kg held 50 mm off the wall by a 3 mm aluminium bracket, with a 2 g shock load, a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';
const ENDED = ['failed', 'rejected', 'cancelled', 'completed'];

/** Waits (polling the run view, no sleep) until the run holds the gate of `phase` or ends. */
async function gateOrEnd(runId: string, phase: string): Promise<Json> {
  let view: Json = {};
  await expect
    .poll(
      async () => {
        view = (await http('GET', `/v1/runs/${runId}`)).json;
        return view.gate?.phase === phase || ENDED.includes(view.status);
      },
      { timeout: 240_000, interval: 100 },
    )
    .toBe(true);
  return view;
}

const nodeOf = async (id: string) => (await http('GET', `/v1/twin/nodes/${id}`)).json;

describe('hardware_v1 architecture, concept selection and design (reference request)', () => {
  it('records budgets as derived constraint sets, the trade study, the decisions and the bracket geometry, then goes on to electronics', async () => {
    const run = await http('POST', '/v1/runs', {
      design_flow: 'hardware_v1',
      project_id: 'p-hw-arch',
      goal: GOAL,
      start: true,
    });
    expect(run.status).toBe(201);
    const runId = run.json.id as string;
    // Approve every gate up to design; the later phases are the end-to-end test's (test/e2e/hardware-v1.test.ts).
    const phases = ['intent', 'needs', 'requirements', 'feasibility', 'architecture', 'concept_selection', 'design'];
    for (const phase of phases) {
      const view = await gateOrEnd(runId, phase);
      expect(view.gate, `${phase}: ${JSON.stringify(view.phases)}`).toMatchObject({ phase, ready: true });
      const decided = await http(
        'POST',
        `/v1/approvals/gate:${runId}/decision`,
        { decision: 'approve', reason: `${phase} reviewed` },
        DASH,
      );
      expect(decided.status, JSON.stringify(decided.json)).toBe(200);
    }
    const end = await gateOrEnd(runId, 'electronics');
    const byId = Object.fromEntries((end.phases as Json[]).map((p) => [p.id, p]));
    const requirementsRef = byId.requirements.deliverables.find((d: Json) => d.type === 'constraint_set').ref;

    // architecture: three derived constraint sets naming the requirement set, and the decision pinning them.
    const arch = byId.architecture.deliverables as Json[];
    const derived = arch.filter((d) => d.type === 'constraint_set');
    expect(derived).toHaveLength(3);
    for (const d of derived) {
      const n = await nodeOf(d.node_id);
      const constraints = n.properties.constraints as Json[];
      expect(constraints.every((c) => c.message.startsWith(`derived from ${requirementsRef}`))).toBe(true);
      expect(constraints.at(-1)!.id).toMatch(/^DER-(MASS|POWER|COST)-TOTAL$/);
      // parent_refs on the set itself, and its DEPENDS_ON edge to the requirement set it serves.
      expect(n.properties.parent_refs).toEqual([requirementsRef]);
      const parents = (n.edges as Json[])
        .filter((e) => e.rel_type === 'DEPENDS_ON' && e.src === d.node_id)
        .map((e) => e.properties.ref);
      expect(parents).toEqual([requirementsRef]);
    }
    const archDecision = await nodeOf(arch.find((d) => d.type === 'design_decision')!.node_id);
    expect(archDecision.properties.decision).toMatch(/Subsystems: structure, electronics, power, firmware/);
    expect(archDecision.properties.rationale).toMatch(/USB 2\.0 specification/);
    const pinned = (archDecision.edges as Json[])
      .filter((e) => e.rel_type === 'DEPENDS_ON')
      .map((e) => e.properties.ref);
    expect(pinned).toEqual(expect.arrayContaining([requirementsRef, ...derived.map((d) => d.ref)]));

    // concept selection: the trade-study table and the decision with its alternatives.
    const concept = byId.concept_selection.deliverables as Json[];
    const study = await nodeOf(concept.find((d) => d.type === 'trade_study')!.node_id);
    expect(study.properties.content).toMatch(/\| A: 3 mm aluminium 6061-T6 \(as stated\) \| 28\.3 \| 184\.0 \|/);
    const decision = await nodeOf(concept.find((d) => d.type === 'design_decision')!.node_id);
    expect(decision.properties.alternatives).toHaveLength(2);
    expect(decision.name).toBe('Concept selection: 3 mm aluminium 6061-T6 (as stated) bracket');

    // design: the chosen bracket committed as a draft cad_model with its decision.
    const design = byId.design.deliverables as Json[];
    const cad = await nodeOf(design.find((d) => d.type === 'cad_model')!.node_id);
    expect(cad).toMatchObject({ node_type: 'cad_model', name: 'wall bracket', revision_status: 'approved' });
    expect(cad.properties.dimensions_mm).toEqual([80, 30, 3]);
    expect(cad.properties.volume_mm3).toBeCloseTo(7200, 0);

    if (process.env.PHASE_TIMES)
      process.stdout.write(
        `${JSON.stringify((end.phases as Json[]).map((p) => [p.id, Date.parse(p.finished_at) - Date.parse(p.started_at)]))}\n`,
      );
  }, 600_000);
});
