import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutBoard } from '../../../actors/adapters/eda/layout/layout.ts';
import { routeBoard, type RouteBoardResult } from '../../../actors/adapters/eda/layout/route.ts';
import { Workspace } from '../../../actors/adapters/kit/workspace.ts';
import { hasLayoutEngines, writeReferenceSchematic } from './layout-support.ts';
import { hasRouting, longSignal } from './route-support.ts';

/**
 * The placer's board from hardware_v1's reference schematic (layout.ts), routed: KiCad 9's DRC with the schematic
 * parity on the written board decides. ROUTE_METHOD picks route-rnd's method (the measurement of ROUTING.md).
 */
describe.skipIf(!hasLayoutEngines || !hasRouting)('routeBoard on the placed reference board', () => {
  let root: string;
  let r: RouteBoardResult;
  const method = (process.env.ROUTE_METHOD ?? 'topo_trbs') as 'topo_trbs';

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'route-placed-'));
    const ws = new Workspace(root);
    writeReferenceSchematic(root, 'e/board.kicad_sch');
    await layoutBoard(
      ws,
      { schematic_path: 'e/board.kicad_sch', output_path: 'e/board.kicad_pcb', outline: { width: 60, height: 45 } },
      longSignal(),
    );
    if (process.env.ROUTE_FIGURES) {
      fs.mkdirSync('/tmp/boards', { recursive: true });
      for (const ext of ['kicad_pcb', 'kicad_pro', 'kicad_dru', 'kicad_sch'])
        fs.copyFileSync(path.join(root, `e/board.${ext}`), `/tmp/boards/reference-placed.${ext}`);
    }
    r = await routeBoard(
      ws,
      {
        board_path: 'e/board.kicad_pcb',
        schematic_path: 'e/board.kicad_sch',
        method,
        output_path: 'e/routed.kicad_pcb',
      },
      longSignal(),
    );
    if (process.env.ROUTE_FIGURES) {
      console.log(JSON.stringify({ ...r, stages: r.stages.map((s) => ({ ...s, board: undefined })) }, null, 1));
      fs.mkdirSync('/tmp/boards', { recursive: true });
      fs.copyFileSync(path.join(root, 'e/routed.kicad_pcb'), `/tmp/boards/reference-${method}.kicad_pcb`);
      fs.copyFileSync(path.join(root, 'e/routed.kicad_pro'), `/tmp/boards/reference-${method}.kicad_pro`);
    }
  }, 900_000);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reports KiCad 9 DRC figures on the written board', () => {
    expect(r.connections_to_route).toBeGreaterThan(0);
    expect(r.check.parity_differences).toBe(0);
    expect(r.check.errors).toBe(0);
    expect(r.check.unconnected).toBe(r.connections_to_route - r.connections_routed);
  });
});
