import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { GatesActions } from '../../../contracts/actions/runs.actions.ts';
import type { PhaseInput } from '../../../actors/runs/executor.ts';
import { HARDWARE_V1 } from '../../../actors/runs/flows/hardware-v1.ts';
import { electronicsPhase } from '../../../actors/runs/handlers/hardware/electronics-phase.ts';
import { postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { phaseInput } from '../../support/phase-input.ts';
import { callTool, okData } from '../../support/tools.ts';

// The hardware_v1 electronics handler through the real registry, twin and eda adapter (KiCad files in a workspace of
// its own): the phase input is what the runs actor builds (service caller scoped to the run), run by hand.
const REFERENCE =
  'a wall-mounted environmental sensor: a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'electronics-phase-'));
const t = useTestNode({ realDb: true, env: { SERVICE_WORKSPACE: workspace } });
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));
const def = HARDWARE_V1.phases.find((p) => p.id === 'electronics')!;

/** The runs actor's phase input for one attempt, recording the tools called. */
const inputFor = (projectId: string, goal: string) =>
  phaseInput(t.node.broker, HARDWARE_V1, { projectId, goal, phase: 'electronics' });

const project = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const node = (input: PhaseInput, node_id: string) =>
  okData(
    callTool(t.node.broker, 'twin.get_node', { node_id }, { project_id: input.project_id!, run_id: input.run_id }),
  );
const gate = (input: PhaseInput, since: string) =>
  call(t.node.broker, GatesActions.evaluate, {
    run_id: input.run_id,
    project_id: input.project_id,
    phase: 'electronics',
    attempt: 1,
    started_at: since,
    required_deliverables: def.required_deliverables,
    enforce_deliverables: def.enforce_deliverables,
    enforce_constraints: def.gate.enforce_constraints,
  });

describe('the electronics phase on the reference request', () => {
  it('records an ERC-clean schematic, its BOM, a closed budget and a board generated from the schematic', async () => {
    const { input, called } = inputFor(await project('env sensor'), REFERENCE);
    const since = new Date(Date.now() - 1000).toISOString();
    const out = await electronicsPhase(input);
    if (!out.ok) throw new Error(`${out.kind}: ${out.message}`);
    expect(out.deliverables.map((d) => d.type)).toEqual(['schematic', 'bom', 'pcb_layout', 'design_decision']);
    expect(called).toContain('eda.run_drc');

    const sch = await node(input, out.deliverables[0]!.node_id);
    const schPath = sch.properties.schematic_path as string;
    expect(sch.properties.erc).toMatchObject({ passed: true, error_count: 0 });
    const erc = await okData(callTool(t.node.broker, 'eda.run_erc', { schematic_path: schPath }));
    expect(erc).toMatchObject({ passed: true, error_count: 0 });
    expect([erc.warning_count, erc.by_type]).toEqual([0, {}]);
    const nets = sch.properties.nets as { name: string; pins: string[] }[];
    expect(nets.find((n) => n.name === '/SDA')?.pins.sort()).toEqual(['R2.2', 'U1.27', 'U2.1']);

    const bom = await node(input, out.deliverables[1]!.node_id);
    const lines = bom.properties.lines as { designators: string; quantity: number; value: string; mpn?: string }[];
    expect(lines.map((l) => [l.value, l.quantity])).toEqual([
      ['100n', 5],
      ['1u', 2],
      ['USB_B_Micro', 1],
      ['AVR-ISP-6', 1],
      ['10k', 3],
      ['ATmega328P-AU', 1],
      ['SHT31-DIS', 1],
      ['AP2112K-3.3', 1],
    ]);
    expect(lines.find((l) => l.value === 'SHT31-DIS')?.mpn).toBe('SHT31-DIS-B2.5KS');
    expect(bom.properties.cost).toMatchObject({ total_eur: 10.05, within: true });

    const decision = await node(input, out.deliverables[3]!.node_id);
    const text = decision.properties.decision as string;
    expect(text).toContain('Worst-case rail load 11.49 mA (37.92 mW at 3.3 V)');
    expect(text).toContain('USB current vs one unit load 11.57 <= 80 mA');
    expect(text).toContain('Parts cost 10.05 EUR vs budget 25 EUR — within');

    // No board in the project: one is generated from the schematic (issue 31, decision 0166), the run's pcb_layout,
    // which KiCad's parity finds to be this schematic's exactly.
    const pcb = await node(input, out.deliverables[2]!.node_id);
    const board = pcb.properties.board_path as string;
    expect(board).toMatch(new RegExp(`^electronics/${input.run_id}/board(\\.routed)?\\.kicad_pcb$`));
    expect(pcb.properties).toMatchObject({
      generated: true,
      placed_board_path: `electronics/${input.run_id}/board.kicad_pcb`,
      outline_mm: { width: 50, height: 40 },
      schematic_parity: { checked: true, matches: true, missing_count: 0, extra_count: 0, net_conflict_count: 0 },
    });
    expect(text).toContain(`layout ${board} (generated) DRC`);
    // The recorded DRC figures are KiCad's own on that board, called again here with the same arguments.
    const drc = await okData(callTool(t.node.broker, 'eda.run_drc', { board_path: board, schematic_path: schPath }));
    expect(pcb.properties.drc).toMatchObject({
      error_count: drc.error_count,
      unconnected_count: drc.unconnected_count,
      passed: drc.error_count === 0 && drc.unconnected_count === 0,
    });

    // The phase says what is left: a board that does not pass its DRC (unconnected, errors) is a finding with KiCad's
    // counts (a warning: V&V fails its DRC row and manufacturing refuses it); one that passes adds none.
    const passed = (pcb.properties.drc as { passed: boolean }).passed;
    expect((out.findings ?? []).filter((f) => f.severity === 'error')).toEqual([]);
    if (passed) expect(out.findings ?? []).toEqual([]);
    else
      expect(out.findings).toEqual([
        {
          kind: 'constraint_violation',
          severity: 'warning',
          message: expect.stringContaining(
            `layout ${board} (generated) DRC FAILED: ${drc.error_count} errors, ${drc.unconnected_count} unconnected`,
          ),
        },
      ]);
    const g = await gate(input, since);
    expect(g.findings.filter((f) => f.kind === 'missing_deliverable')).toEqual([]);
  }, 1_200_000);

  it("checks a layout the project holds against the run's schematic: a board of another design blocks the gate", async () => {
    const pid = await project('env sensor with board');
    fs.mkdirSync(path.join(workspace, 'boards'), { recursive: true });
    // The board with its project file (its design rules: without them KiCad 9's defaults find 8 DRC errors).
    for (const ext of ['kicad_pcb', 'kicad_pro'])
      fs.cpSync(`/usr/share/kicad/demos/pic_programmer/pic_programmer.${ext}`, `${workspace}/boards/board.${ext}`);
    await okData(
      callTool(t.node.broker, 'twin.record_document', {
        project_id: pid,
        document_type: 'pcb_layout',
        name: 'Sensor board',
        content: 'imported board',
        properties: { board_path: 'boards/board.kicad_pcb' },
      }),
    );
    const { input, called } = inputFor(pid, REFERENCE);
    const since = new Date(Date.now() - 1000).toISOString();
    const out = await electronicsPhase(input);
    expect(called).toContain('eda.run_drc');
    // KiCad's parity of the PIC programmer's board against the sensor's schematic: footprints of the one are not
    // parts of the other. The phase's own error finding names the differences; the gate is not ready.
    if (!out.ok) throw new Error(`${out.kind}: ${out.message}`);
    expect(out.findings).toHaveLength(1);
    const finding = out.findings![0]!;
    expect(finding).toMatchObject({ kind: 'constraint_violation', severity: 'error' });
    const pcb = await node(input, out.deliverables.find((d) => d.type === 'pcb_layout')!.node_id);
    expect(pcb.properties.schematic_parity).toMatchObject({ checked: true, matches: false });
    const message = finding.message;
    expect(message).toMatch(
      new RegExp(
        `^layout boards/board\\.kicad_pcb does not match the schematic electronics/${input.run_id}/board\\.kicad_sch: \\d+ footprint\\(s\\) missing \\(`,
      ),
    );
    expect(message).toMatch(/\d+ footprint\(s\) not in the schematic \(/);
    // The check as KiCad answers it, called directly with the same arguments.
    const drc = await okData(
      callTool(t.node.broker, 'eda.run_drc', {
        board_path: 'boards/board.kicad_pcb',
        schematic_path: `electronics/${input.run_id}/board.kicad_sch`,
      }),
    );
    expect(drc.schematic_parity.matches).toBe(false);
    expect(message).toContain(`${drc.schematic_parity.missing_footprints.length} footprint(s) missing`);
  });
});

describe('a request the parts table cannot serve', () => {
  it('fails as data naming the function, before any file is written', async () => {
    const { input, called } = inputFor(
      await project('co2 sensor'),
      'a 3.3 V microcontroller board with a CO2 sensor and a barometric pressure sensor, powered from USB',
    );
    const out = await electronicsPhase(input);
    expect(out).toEqual({
      ok: false,
      kind: 'data',
      message: 'the parts table cannot serve: CO2 sensing; pressure sensing',
    });
    expect(called.filter((n) => !n.startsWith('twin.query'))).toEqual([]);
  });
});
