import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBoard } from '../../../../workers/eda/board.ts';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { callTool, okData } from '../../../support/tools.ts';
import { BOARD_PROJECTS, demoWorkspace } from './demo-workspace.ts';

// On every demo project with a schematic and a board, through the registry: the schematic's netlist groups the pads
// exactly as the board's pads carry their nets, every named net has the board's name, and the BOM's references are
// the board's footprints.
const workspace = demoWorkspace('eda-netlist-');
let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'tools,adapter:eda', env: { SERVICE_WORKSPACE: workspace } });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
});

type Netlist = { nets: { name: string; auto_named: boolean; nodes: { reference: string; pin: string }[] }[] };

/** Board footprints that are not parts of the schematic, each checked in the demo's board file. */
const BOARD_ONLY: Record<string, string[]> = {
  // A footprint placed only on the board (reference "U***", a custom pad shape demonstration), no symbol.
  custom_pads_test: ['U***'],
  // The KiCad logo graphic footprint G1, drawn on the board only.
  interf_u: ['G1'],
  // Six mounting holes placed on the board only.
  flat_hierarchy: ['HOLE1', 'HOLE2', 'HOLE3', 'HOLE4', 'HOLE5', 'HOLE6'],
};
/** Parts whose symbol says in_bom no (the board's own exclude_from_bom flags are not the authority: ecc83's board
 * excludes P5, P6 and two more that its schematic lists). */
const NOT_IN_BOM: Record<string, string[]> = { stickhub: ['C38'] };

describe.each(BOARD_PROJECTS)('%s/%s', (dir, stem) => {
  const board = () => parseBoard(fs.readFileSync(path.join(workspace, dir, `${stem}.kicad_pcb`), 'utf8'), stem);

  it('nets: the same pad groups as the board, and the board names of every named net', async () => {
    const sch = await okData<Netlist>(
      callTool(t.node.broker, 'eda.export_netlist', { schematic_path: `${dir}/${stem}.kicad_sch`, format: 'json' }),
    );
    const netOfPad = new Map<string, { name: string; auto: boolean }>();
    for (const n of sch.nets)
      for (const node of n.nodes) netOfPad.set(`${node.reference}.${node.pin}`, { name: n.name, auto: n.auto_named });
    // A footprint may carry several pads of one number (a connector's shield, a heat sink): one node per number.
    const padsByBoardNet = new Map<string, Set<string>>();
    let checked = 0;
    for (const fp of board().footprints)
      for (const pad of fp.pads) {
        if (!pad.number) continue; // mechanical holes have no number and no symbol pin
        const k = `${fp.reference}.${pad.number}`;
        const s = netOfPad.get(k);
        if (!pad.net || pad.net.startsWith('unconnected-')) {
          // A pad on no net is alone in the schematic too (a lone pin, or a part the schematic does not have).
          if (s) expect(sch.nets.find((n) => n.name === s.name)!.nodes.length, k).toBe(1);
          continue;
        }
        expect(s, `${k} is on ${pad.net} on the board`).toBeDefined();
        if (!s!.auto && !pad.net.startsWith('Net-(')) expect(s!.name, k).toBe(pad.net);
        padsByBoardNet.set(pad.net, (padsByBoardNet.get(pad.net) ?? new Set()).add(k));
        checked++;
      }
    for (const [boardNet, pads] of padsByBoardNet) {
      const names = new Set([...pads].map((k) => netOfPad.get(k)!.name));
      expect([...names], `board net ${boardNet}`).toHaveLength(1);
      const schNet = sch.nets.find((n) => n.name === [...names][0])!;
      const schPads = schNet.nodes.map((n) => `${n.reference}.${n.pin}`).filter((k) => netOfPad.has(k));
      expect(schPads.sort(), `schematic net ${schNet.name}`).toEqual([...pads].sort());
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("BOM: the references are the board's footprints (less board-only items and parts marked in_bom no)", async () => {
    const bom = await okData<{ lines: { references: string[] }[]; bom_file: string }>(
      callTool(t.node.broker, 'eda.export_bom', { schematic_path: `${dir}/${stem}.kicad_sch`, format: 'csv' }),
    );
    const refs = bom.lines.flatMap((l) => l.references).sort();
    const expected = board()
      .footprints.filter((f) => ![...(BOARD_ONLY[dir] ?? []), ...(NOT_IN_BOM[dir] ?? [])].includes(f.reference))
      .map((f) => f.reference)
      .sort();
    expect(refs).toEqual(expected);
    expect(fs.readFileSync(path.join(workspace, bom.bom_file), 'utf8')).toMatch(/^References,Quantity,Value,Footprint/);
  });
});
