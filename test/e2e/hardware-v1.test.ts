import { describe, expect, it, vi } from 'vitest';
import { workspaceRoot } from '../../actors/adapters/kit/workspace.ts';
import { HARDWARE_V1 } from '../../actors/runs/flows/hardware-v1.ts';
import { importBoard } from '../support/board-import.ts';
import { httpJson, type Json } from '../support/http-raw.ts';
import { useTestNode } from '../support/node.ts';

/**
 * hardware_v1 end to end (issues 19 and 30): the reference request goes from intent through the gates, each approved
 * by a person over HTTP, on the deterministic handlers and the real engines (CAD kernel, gmsh, CalculiX, KiCad 9,
 * gcc), with a KiCad board the project imported first (recorded over MCP with the official SDK client): KiCad's demo
 * pic_programmer, which is not the sensor's schematic, so the run stops at the electronics gate naming the
 * differences. The same request with a 20 g shock stops at feasibility (approved over with a reason) and again at V&V
 * with an `analysis` finding and approve refused.
 */
const t = useTestNode({ realDb: true, workspace: 'hw-e2e-ws-', startTimeoutMs: 120_000 });
const http = (method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
  httpJson(`${t.url}${p}`, method, body, headers);
const DASH = { 'x-service-surface': 'dashboard' };
const goal = (shock: number) =>
  `a wall-mounted environmental sensor: an 80 x 60 x 30 mm enclosure of 0.4 kg held 50 mm off the wall by a 3 mm aluminium bracket, with a ${shock} g shock load, a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost`;
const PHASES = HARDWARE_V1.phases.map((p) => p.id);

async function project(name: string) {
  const p = await http('POST', '/v1/projects', { name });
  expect(p.status).toBe(201);
  return p.json.id as string;
}

/** Waits (polling the run view) until the run holds the gate of `phase`; a run that ends first fails the test. */
async function gateOf(runId: string, phase: string): Promise<Json> {
  let view: Json = {};
  await expect
    .poll(
      async () => {
        view = (await http('GET', `/v1/runs/${runId}`)).json;
        if (['failed', 'rejected', 'cancelled'].includes(view.status))
          throw new Error(`run ended at ${phase}: ${JSON.stringify(view.phases)}`);
        return view.gate?.phase ?? null;
      },
      // The electronics phase places and routes a board of its own when none is attached (decision 0166): minutes.
      { timeout: 900_000, interval: 100 },
    )
    .toBe(phase);
  return view.gate;
}

const approve = (runId: string, phase: string) =>
  http('POST', `/v1/runs/${runId}/approval`, { decision: 'approve', reason: `${phase} reviewed` });
const nodeOf = async (id: string) => (await http('GET', `/v1/twin/nodes/${id}`)).json;

describe('hardware_v1 end to end on the real engines', () => {
  it('stops the reference request at the electronics gate: the attached board is not its schematic', async () => {
    // The project's board is KiCad's pic_programmer demo: KiCad's schematic parity against the sensor's generated
    // schematic finds footprints missing and extra, a blocking finding approve cannot pass (decision 0133). A board
    // that matches the run's schematic (and the run to COMPLETED_VERIFIED on it) is the layout issue's work.
    expect(PHASES).toHaveLength(11);
    const pid = await project('wall-mounted environmental sensor');
    await importBoard(t.url, workspaceRoot(t.node.infra.config), pid, (probe, what) =>
      vi.waitFor(
        async () => {
          const v = await probe();
          if (v === undefined) throw new Error(`not yet: ${what}`);
          return v;
        },
        { timeout: 60_000, interval: 50 },
      ),
    );
    const run = await http('POST', '/v1/runs', {
      design_flow: 'hardware_v1',
      project_id: pid,
      goal: goal(2),
      start: true,
    });
    expect(run.status).toBe(201);
    const runId = run.json.id as string;
    for (const phase of PHASES.slice(0, PHASES.indexOf('electronics'))) {
      const gate = await gateOf(runId, phase);
      expect(gate, `${phase}: ${JSON.stringify(gate?.findings)}`).toMatchObject({ ready: true });
      const decided = await approve(runId, phase);
      expect(decided.status, JSON.stringify(decided.json)).toBe(200);
    }
    const gate = await gateOf(runId, 'electronics');
    expect(gate.ready).toBe(false);
    const parity = (gate.findings as Json[]).find((f) => f.kind === 'constraint_violation');
    expect(parity, JSON.stringify(gate.findings)).toMatchObject({ severity: 'error' });
    expect(parity!.message).toMatch(
      /^layout boards\/sensor\.kicad_pcb does not match the schematic electronics\/.+\/board\.kicad_sch: \d+ footprint\(s\) missing/,
    );
    expect((await approve(runId, 'electronics')).status).toBe(409);
    const lifecycle = (await http('GET', `/v1/runs/${runId}/lifecycle`)).json;
    expect(lifecycle.verdict ?? null, JSON.stringify(lifecycle)).not.toBe('COMPLETED_VERIFIED');
  }, 900_000);

  it('stops the 20 g request at V&V with an analysis finding and refuses approve', async () => {
    const pid = await project('sensor under 20 g');
    const run = await http('POST', '/v1/runs', {
      design_flow: 'hardware_v1',
      project_id: pid,
      goal: goal(20),
      start: true,
    });
    const runId = run.json.id as string;
    for (const phase of PHASES.slice(0, PHASES.indexOf('simulation'))) {
      const open = await gateOf(runId, phase);
      if (phase === 'feasibility') {
        // The hand calculation of the 3 mm bracket is over its allowable at 20 g: an error finding (issue 28 point 3)
        // that a person may approve over only with a reason (decision 0060); the run goes on to be judged by the solver.
        const hand = (open.findings as Json[]).find((f) => f.kind === 'analysis');
        expect(hand, JSON.stringify(open.findings)).toMatchObject({ severity: 'error' });
        expect((await approve(runId, phase)).status).toBe(409);
        const over = await http('POST', `/v1/runs/${runId}/approval`, {
          decision: 'approve',
          reason: 'feasibility reviewed',
          override_reason: 'the simulation decides the bracket',
        });
        expect(over.status).toBe(200);
        continue;
      }
      expect((await approve(runId, phase)).status).toBe(200);
    }
    const gate = await gateOf(runId, 'simulation');
    expect(gate.ready).toBe(false);
    const analysis = (gate.findings as Json[]).find((f) => f.kind === 'analysis');
    expect(analysis, JSON.stringify(gate.findings)).toMatchObject({ severity: 'error' });
    expect(analysis!.message).toMatch(/REQ-STRESS/);
    expect((await approve(runId, 'simulation')).status).toBe(409);
  }, 1_800_000);
});
