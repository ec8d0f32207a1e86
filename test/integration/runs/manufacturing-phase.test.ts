import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { GatesActions } from '../../../contracts/actions/runs.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import type { PhaseInput } from '../../../actors/runs/executor.ts';
import { HARDWARE_V1 } from '../../../actors/runs/flows/hardware-v1.ts';
import { powerBudget } from '../../../actors/runs/handlers/hardware/electronics-budget.ts';
import { electronicsPhase } from '../../../actors/runs/handlers/hardware/electronics-phase.ts';
import { selectParts } from '../../../actors/runs/handlers/hardware/electronics-select.ts';
import { manufacturingPhase } from '../../../actors/runs/handlers/hardware/manufacturing-phase.ts';
import { commitBox } from '../../../actors/runs/handlers/mech/box-part.ts';
import type { Deliverable } from '../../../actors/runs/run.types.ts';
import { postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { phaseInput } from '../../support/phase-input.ts';
import { callTool, okData } from '../../support/tools.ts';

// The hardware_v1 manufacturing handler through the real registry, twin, eda and CAD adapters (KiCad files in a
// workspace of its own), after the electronics phase and the bracket of the same run were approved: the phase input is
// what the runs actor builds (service caller scoped to the run), run by hand.
const REFERENCE =
  'a wall-mounted environmental sensor: a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'manufacturing-phase-'));
const t = useTestNode({ realDb: true, env: { SERVICE_WORKSPACE: workspace }, startTimeoutMs: 120_000 });
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

/** The runs actor's input for one phase of a run, recording the tools called. */
const inputFor = (runId: string, projectId: string, phase: string, prior: Record<string, Deliverable[]> = {}) =>
  phaseInput(t.node.broker, HARDWARE_V1, { runId, projectId, phase, prior, goal: REFERENCE });

const project = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const node = (input: PhaseInput, node_id: string) =>
  okData(
    callTool(t.node.broker, 'twin.get_node', { node_id }, { project_id: input.project_id!, run_id: input.run_id }),
  );
/** A gate approval of the run: its drafts committed in one change set (what the G6/G6E/G8 approvals do). */
const approve = (runId: string, projectId: string, gate: string) =>
  call(t.node.broker, TwinActions.commitChangeSet, {
    run_id: runId,
    project_id: projectId,
    gate_id: `${runId}:${gate}`,
    gate_name: gate,
    approver: 'test',
  });
const recordLayout = (pid: string, boardPath: string) =>
  okData(
    callTool(t.node.broker, 'twin.record_document', {
      project_id: pid,
      document_type: 'pcb_layout',
      name: 'Sensor board',
      content: 'imported board',
      properties: { board_path: boardPath },
    }),
  );

describe('the manufacturing phase on the reference request with an imported board', () => {
  it('costs the BOM, plots the board with its position file, exports STEP and plans bring-up', async () => {
    const pid = await project('env sensor release');
    fs.mkdirSync(path.join(workspace, 'boards'), { recursive: true });
    // The board with its project file (its design rules: without them KiCad 9's defaults find 8 DRC errors).
    for (const ext of ['kicad_pcb', 'kicad_pro'])
      fs.cpSync(`/usr/share/kicad/demos/pic_programmer/pic_programmer.${ext}`, `${workspace}/boards/board.${ext}`);
    await recordLayout(pid, 'boards/board.kicad_pcb');
    const runId = `run-${crypto.randomUUID()}`;
    const design = inputFor(runId, pid, 'design').input;
    const { cad } = await commitBox(design, { name: 'wall bracket', length: 80, width: 30, height: 3 });
    const elec = await electronicsPhase(inputFor(runId, pid, 'electronics').input);
    if (!elec.ok) throw new Error(`${elec.kind}: ${elec.message}`);
    expect(await approve(runId, pid, 'G6E')).toMatchObject({ status: 'committed' });

    const prior = {
      design: [{ type: 'cad_model', node_id: cad.node_id, ref: cad.item_ref }],
      electronics: elec.deliverables,
    };
    const { input, called } = inputFor(runId, pid, 'manufacturing', prior);
    const since = new Date(Date.now() - 1000).toISOString();
    const out = await manufacturingPhase(input);
    if (!out.ok) throw new Error(`${out.kind}: ${out.message}`);
    expect(out.deliverables.map((d) => d.type)).toEqual([
      'manufacturing_file',
      'manufacturing_file',
      'test_plan',
      'design_decision',
    ]);
    expect(called).toContain('eda.export_gerber');

    // Costed BOM: a document of its own pinning the electronics bom revision, every line priced, 10.05 EUR of 25 EUR.
    const elecBom = await node(input, elec.deliverables.find((d) => d.type === 'bom')!.node_id);
    const bom = await node(input, out.deliverables[1]!.node_id);
    expect(bom.properties).toMatchObject({ kind: 'costed_bom', bom_ref: elecBom.item_ref });
    const lines = bom.properties.lines as { quantity: number; unit_price: number; extended_price: number }[];
    expect(lines).toHaveLength(8);
    for (const l of lines) expect(l.extended_price).toBe(Math.round(l.unit_price * l.quantity * 100) / 100);
    expect(bom.properties.cost).toMatchObject({ total_eur: 10.05, within: true, headroom_eur: 14.95, unpriced: [] });

    // Fabrication set: the Gerbers, drill and job files, KiCad's position file (one row per placed footprint), STEP.
    const mfg = (await node(input, out.deliverables[0]!.node_id)).properties;
    expect(mfg).toMatchObject({ kind: 'fabrication', board_path: 'boards/board.kicad_pcb' });
    expect(mfg.layers).toEqual([
      'F.Cu',
      'B.Cu',
      'F.Paste',
      'B.Paste',
      'F.Silkscreen',
      'B.Silkscreen',
      'F.Mask',
      'B.Mask',
      'Edge.Cuts',
    ]);
    expect((mfg.drill_files as string[]).map((f) => path.basename(f))).toEqual(['board-NPTH.drl', 'board-PTH.drl']);
    expect(path.basename(mfg.job_file as string)).toBe('board-job.gbrjob');
    const csv = fs
      .readFileSync(path.join(workspace, mfg.position_file as string), 'utf8')
      .trim()
      .split('\n');
    expect([csv.length - 1, mfg.placed_count]).toEqual([56, 56]);
    const step = (mfg.step_files as { path: string; part: string }[])[0]!;
    expect(step.part).toBe('wall bracket');
    expect(fs.readFileSync(path.join(workspace, step.path), 'utf8').slice(0, 13)).toBe('ISO-10303-21;');

    // Bring-up plan from the schematic's nets: rails, current within the budget, ISP, SHT31 at 0x44 and its readings.
    const tp = (await node(input, out.deliverables[2]!.node_id)).properties;
    const steps = tp.steps as { id: string; title: string; limits?: { max?: number } }[];
    expect(steps.map((s) => s.id)).toEqual(['P1', 'P2', 'P3', 'F1', 'F2', 'I1', 'S1', 'S2']);
    expect(steps[2]!.limits!.max).toBe(11.57);
    expect(steps[5]!.title).toBe('SHT31 U2 present at 0x44');

    const decision = (await node(input, out.deliverables[3]!.node_id)).properties.decision as string;
    expect(decision).toMatch(
      /^Ready for release review: BOM cost 10\.05 EUR per board vs budget 25 EUR: headroom 14\.95 EUR/,
    );
    expect(decision).toContain('position file');

    const g = await call(t.node.broker, GatesActions.evaluate, {
      run_id: runId,
      project_id: pid,
      phase: 'manufacturing',
      attempt: 1,
      started_at: since,
      required_deliverables: input.phase.required_deliverables,
      enforce_deliverables: input.phase.enforce_deliverables,
      enforce_constraints: input.phase.gate.enforce_constraints,
    });
    expect(g.ready).toBe(true);
    // The documents are drafts of the run until the G8 approval commits them, and committing them leaves what the
    // electronics gate approved current: its bom is still the head and its decision is not stale.
    expect(bom.revision_status).toBe('draft');
    const committed = await approve(runId, pid, 'G8');
    expect(committed.status === 'committed' && committed.committed.map((c) => c.key).sort()).toEqual(
      out.deliverables
        .slice(0, 3)
        .map((d) => d.ref!.split('@')[0])
        .sort(),
    );
    expect((await node(input, bom.id)).revision_status).toBe('approved');
    const elecDecision = elec.deliverables.find((d) => d.type === 'design_decision')!;
    expect((await node(input, elecDecision.node_id)).stale).toBe(false);
    expect(await okData(callTool(t.node.broker, 'twin.get_node', { item_key: elecBom.item_key }))).toMatchObject({
      id: elecBom.id,
    });
  }, 600_000); // real engines (KiCad, the CAD kernel) on a shared machine: bounded by the tools' own timeouts, not 30 s
});

/** A run's electronics records as the electronics phase writes them (schematic properties given), and a layout. */
async function electronicsOf(pid: string, boardPath: string, schematic: Record<string, unknown>) {
  const pcb = await recordLayout(pid, boardPath);
  const bom = await okData(
    callTool(t.node.broker, 'twin.record_document', {
      project_id: pid,
      document_type: 'bom',
      name: 'board BOM',
      properties: { lines: [{ designators: 'U1', quantity: 1, value: 'ATmega328P-AU', mpn: 'ATMEGA328P-AU' }] },
    }),
  );
  const sch = await okData(
    callTool(t.node.broker, 'twin.record_document', {
      project_id: pid,
      document_type: 'schematic',
      name: 'board',
      properties: schematic,
    }),
  );
  return {
    pcb,
    sch,
    prior: {
      design: [{ type: 'cad_model', node_id: crypto.randomUUID(), ref: 'CAD-NONE@1' }],
      electronics: [
        { type: 'schematic', node_id: sch.node_id, ref: sch.item_ref },
        { type: 'bom', node_id: bom.node_id, ref: bom.item_ref },
        { type: 'pcb_layout', node_id: pcb.node_id, ref: pcb.item_ref },
      ],
    },
  };
}

describe('the manufacturing phase refuses what it cannot release, recording nothing', () => {
  it('a pcb_layout whose board_path escapes the workspace is a data failure naming it', async () => {
    const pid = await project('escaping board');
    const sel = selectParts(REFERENCE);
    if (!sel.ok) throw new Error(sel.unserved.join('; '));
    const { pcb, prior } = await electronicsOf(pid, '../outside/board.kicad_pcb', {
      nets: [],
      power_budget: powerBudget(sel.placed, sel.rail_v),
    });
    const runId = `run-${crypto.randomUUID()}`;
    const { input, called } = inputFor(runId, pid, 'manufacturing', prior);
    const out = await manufacturingPhase(input);
    expect(out).toMatchObject({ ok: false, kind: 'data' });
    if (out.ok) return;
    expect(out.message).toContain(`the pcb_layout ${pcb.item_ref} cannot be plotted`);
    expect(out.message).toContain('board_path "../outside/board.kicad_pcb" is outside the workspace');
    expect(called).toContain('eda.export_gerber');
    expect(called.filter((n) => /^twin\.(record|stage)/.test(n) || n.startsWith('cadkernel.'))).toEqual([]);
    expect(fs.existsSync(path.join(workspace, 'manufacturing', runId))).toBe(false);
  });

  it('a schematic without the power budget the electronics phase records (a run from before) is a data failure naming it', async () => {
    const pid = await project('schematic without budget');
    const { sch, prior } = await electronicsOf(pid, 'boards/board.kicad_pcb', { nets: [] });
    const { input, called } = inputFor(`run-${crypto.randomUUID()}`, pid, 'manufacturing', prior);
    const out = await manufacturingPhase(input);
    expect(out).toMatchObject({ ok: false, kind: 'data' });
    expect(!out.ok && out.message).toMatch(
      new RegExp(`^the schematic ${sch.item_ref} holds no power_budget as the electronics phase records it`),
    );
    expect(
      called.filter((n) => /^twin\.(record|stage)/.test(n) || n.startsWith('eda.') || n.startsWith('cadkernel.')),
    ).toEqual([]);
  });

  it('without a delivered pcb_layout it names what to attach and calls no tool', async () => {
    const pid = await project('no board');
    const { input, called } = inputFor(`run-${crypto.randomUUID()}`, pid, 'manufacturing', {
      design: [{ type: 'cad_model', node_id: crypto.randomUUID(), ref: 'CAD-NONE@1' }],
      electronics: [
        { type: 'schematic', node_id: crypto.randomUUID(), ref: 'SCH-NONE@1' },
        { type: 'bom', node_id: crypto.randomUUID(), ref: 'BOM-NONE@1' },
      ],
    });
    const out = await manufacturingPhase(input);
    expect(out).toMatchObject({ ok: false, kind: 'data' });
    expect(!out.ok && out.message).toMatch(
      /^no pcb_layout was delivered by an earlier phase: attach the board as a pcb_layout/,
    );
    expect(called).toEqual([]);
  });
});
