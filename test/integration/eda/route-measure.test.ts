import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutBoard } from '../../../actors/adapters/eda/layout/layout.ts';
import { routeBoard, type RouteBoardResult } from '../../../actors/adapters/eda/layout/route.ts';
import { ROUTE_METHODS } from '../../../actors/adapters/eda/layout/route-stage.ts';
import { Workspace } from '../../../actors/adapters/kit/workspace.ts';
import { writeReferenceSchematic } from './layout-support.ts';
import { hasRouting, longSignal, makeTestBoard } from './route-support.ts';

/**
 * ROUTING.md's measurement for issue 31 (ROUTE_MEASURE=1; minutes per board): route-rnd's three methods on the test
 * board made from the ecc83 demo and on the placer's board of hardware_v1's reference schematic, the same settings
 * for each; prints one table row per run and writes each routed board and a PNG of it to /tmp/boards.
 */
const BOARDS = ['ecc83-spread', 'reference'] as const;

describe.skipIf(!hasRouting || !process.env.ROUTE_MEASURE)('route-rnd methods measured on the layout boards', () => {
  let root: string;
  const rows: string[] = [];

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'route-measure-'));
    makeTestBoard(path.join(root, 'ecc83-spread'), 'board', { spread: 1.5 });
    writeReferenceSchematic(root, 'reference/board.kicad_sch');
    await layoutBoard(
      new Workspace(root),
      {
        schematic_path: 'reference/board.kicad_sch',
        output_path: 'reference/board.kicad_pcb',
        outline: { width: 60, height: 45 },
      },
      longSignal(),
    );
    fs.mkdirSync('/tmp/boards', { recursive: true });
  }, 900_000);
  afterAll(() => {
    console.log(
      ['| board | method | completion | track length | vias | DRC errors | unconnected | time |', ...rows].join('\n'),
    );
    fs.rmSync(root, { recursive: true, force: true });
  });

  for (const board of BOARDS)
    for (const method of ROUTE_METHODS)
      it(`${board} with ${method}`, async () => {
        const ws = new Workspace(root);
        const out = `${board}/${method}.kicad_pcb`;
        const r: RouteBoardResult = await routeBoard(
          ws,
          {
            board_path: `${board}/board.kicad_pcb`,
            schematic_path: `${board}/board.kicad_sch`,
            output_path: out,
            method,
            router_timeout_s: 30,
            clearance_scales: [1, 1.5, 2.5],
          },
          longSignal(),
        );
        rows.push(
          `| ${board} | ${method} | ${r.connections_routed}/${r.connections_to_route} (${(r.completion * 100).toFixed(1)}%) | ${r.track_length_mm} mm | ${r.vias} (+${r.stitching_vias} stitching) | ${r.check.errors} | ${r.check.unconnected} | ${(r.elapsed_ms / 1000).toFixed(0)} s |`,
        );
        console.log(rows.at(-1), JSON.stringify(r.warnings.slice(0, 3)));
        expect(r.check.parity_differences).toBe(0);
        const png = `/tmp/boards/${board}-${method}`;
        for (const ext of ['kicad_pcb', 'kicad_pro'])
          fs.copyFileSync(path.join(root, board, `${method}.${ext}`), `${png}.${ext}`);
        execFileSync(
          'kicad-cli',
          [
            'pcb',
            'export',
            'svg',
            '--layers',
            'B.Cu,F.Cu,Edge.Cuts,F.SilkS',
            '--mode-single',
            '--exclude-drawing-sheet',
            '--fit-page-to-board',
            '-o',
            `${png}.svg`,
            `${png}.kicad_pcb`,
          ],
          { stdio: 'ignore', env: { ...process.env, HOME: root } },
        );
      }, 900_000);
});
