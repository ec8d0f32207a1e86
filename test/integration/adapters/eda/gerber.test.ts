import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { boardPads, copperLayersOf, parseBoard, type BoardPad } from '../../../../workers/eda/board.ts';
import { copperStack } from '../../../../actors/adapters/eda/gerber-files.ts';
import { exportGerberTool } from '../../../../actors/adapters/eda/gerber.tool.ts';
import { InvalidArgumentsError, ToolError } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { demoWorkspace, listFiles, rejection, toolContext } from './board-support.ts';
import { readDrill, readGerber, type Flash } from './gerber-read.ts';

const demos = demoWorkspace('eda-gerber-');
const ws = new Workspace(demos.root);
const tool = exportGerberTool(ws);
afterAll(() => demos.remove());

const TOL = 0.01; // mm
const near = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.abs(a.x - b.x) <= TOL && Math.abs(a.y - b.y) <= TOL;

/**
 * The pads KiCad draws on a copper layer: those whose layer set holds it, except non-plated holes no larger than their
 * pad (KiCad draws nothing but the hole there: pic_programmer's six 4.3 mm mounting holes, StickHub's oval NPTH).
 */
const drawnOn = (pads: BoardPad[], layer: string, layersOf: (p: BoardPad) => string[]) =>
  pads.filter(
    (p) =>
      layersOf(p).includes(layer) &&
      !(p.type === 'np_thru_hole' && p.drill && p.size.w <= p.drill.w && p.size.h <= p.drill.h),
  );

/** Each pad matched to its own pad flash (at its shape's centre, which a drill offset moves off the hole) within TOL (and to the same reference and number where KiCad wrote TO.P). */
function unmatchedPads(pads: BoardPad[], flashes: Flash[]): BoardPad[] {
  const used = new Uint8Array(flashes.length);
  const left: BoardPad[] = [];
  for (const p of pads) {
    const k = flashes.findIndex(
      (f, i) =>
        !used[i] && near(f, p.shape_position) && (!f.pad || (f.pad.ref === p.reference && f.pad.pin === p.number)),
    );
    if (k < 0) left.push(p);
    else used[k] = 1;
  }
  return left;
}

/** KiCad's CSV position file: header, then one quoted Ref,Val,Package and PosX,PosY,Rot,Side per placed footprint. */
function readPositions(csv: string): { header: string[]; rows: { ref: string; side: string }[] } {
  const [head, ...lines] = csv.trim().split('\n');
  const cells = (l: string) => [...l.matchAll(/"((?:[^"]|"")*)"|([^,]+)/g)].map((m) => m[1] ?? m[2]!);
  return {
    header: cells(head!),
    rows: lines.map((l) => {
      const c = cells(l);
      return { ref: c[0]!, side: c[6]! };
    }),
  };
}

/**
 * Boards checked pad by pad (every demo board opens in board-demos.test.ts): two and four copper layers, custom pad
 * shapes, offset drills, NPTH holes, a board whose copper layers have user names (pic_programmer's top_layer).
 */
const CHECKED = [
  'pic_programmer/pic_programmer.kicad_pcb',
  'custom_pads_test/custom_pads_test.kicad_pcb',
  'stickhub/StickHub.kicad_pcb',
  'kit-dev-coldfire-xilinx_5213/kit-dev-coldfire-xilinx_5213.kicad_pcb',
];

describe('eda.export_gerber through kicad-cli (KiCad 9)', () => {
  it.each(CHECKED)('%s: Gerbers parse, pad flashes match the board per copper layer, holes match', async (rel) => {
    const boardPath = demos.board(rel);
    const tc = toolContext();
    const r = await tool.handler({ board_path: boardPath, overwrite: false }, tc);
    const board = parseBoard(fs.readFileSync(path.join(demos.root, boardPath), 'utf8'), rel);
    const layersOf = (p: BoardPad) => copperLayersOf(board, p.layers);
    expect(r.layer_count).toBe(board.copper_layers.length);
    expect(r.kicad_version).toMatch(/^9\./);
    expect(r.output_dir).toMatch(/^calls\/eda\.export_gerber\/[0-9a-f-]{36}\/out$/);
    expect(tc.outputFiles).toEqual([...r.files.map((f) => f.path), r.position_file]);
    const gerberLayers = r.files.filter((f) => f.kind === 'gerber').map((f) => f.layer);
    expect(gerberLayers).toEqual([
      ...copperStack(board.copper_layers),
      ...['F.Paste', 'B.Paste', 'F.Silkscreen', 'B.Silkscreen', 'F.Mask', 'B.Mask', 'Edge.Cuts'],
    ]);
    expect(r.files.filter((f) => f.kind === 'drill').map((f) => f.layer)).toEqual(['NPTH', 'PTH']);
    for (const f of r.files) expect(fs.statSync(path.join(demos.root, f.path)).size).toBe(f.bytes);

    // Pick-and-place: one row per footprint not excluded from position files, at the footprint's position.
    const placed = board.footprints.filter((f) => !f.attributes.includes('exclude_from_pos_files'));
    expect(r.placed_count).toBe(placed.length);
    const pos = readPositions(fs.readFileSync(path.join(demos.root, r.position_file), 'utf8'));
    expect(pos.header).toEqual(['Ref', 'Val', 'Package', 'PosX', 'PosY', 'Rot', 'Side']);
    expect(pos.rows.map((p) => p.ref).sort()).toEqual(placed.map((f) => f.reference).sort());

    // The job file lists every Gerber with its layer.
    const job = JSON.parse(fs.readFileSync(path.join(demos.root, r.files.find((f) => f.kind === 'job')!.path), 'utf8'));
    const gerbers = r.files.filter((f) => f.kind === 'gerber');
    expect(job.FilesAttributes.map((a: { Path: string }) => a.Path)).toEqual(gerbers.map((f) => path.basename(f.path)));
    expect(job.GeneralSpecs.LayerNumber).toBe(board.copper_layers.length);

    const pads = boardPads(board);
    for (const f of gerbers) {
      const g = readGerber(fs.readFileSync(path.join(demos.root, f.path), 'utf8'));
      expect(g.units, f.path).toBe('mm');
      if (!board.copper_layers.includes(f.layer)) continue;
      // Pads flash (custom-shaped ones through an aperture macro: KiCad flashes them too); a pad drawn as a region
      // under its TO.P attribute (none in the demos) would count as drawn, matched by reference and number.
      const padFlashes = g.flashes.filter((x) => x.func !== 'ViaPad');
      expect(new Set(padFlashes.map((x) => x.func)), f.path).toSatisfy((s: Set<string>) =>
        [...s].every((fn) => /Pad/.test(fn)),
      );
      const expected = drawnOn(pads, f.layer, layersOf);
      expect(padFlashes.length + g.padRegions.length, f.path).toBe(expected.length);
      const byRegion = new Set(g.padRegions.map((p) => `${p.ref}\u0000${p.pin}`));
      const left = unmatchedPads(
        expected.filter((p) => !byRegion.has(`${p.reference}\u0000${p.number}`)),
        padFlashes,
      );
      expect(
        left.map((p) => `${p.reference}.${p.number}@${p.shape_position.x},${p.shape_position.y}`),
        f.path,
      ).toEqual([]);
      // Vias flash on the outer layers at their positions (inner layers may drop unconnected ones).
      if (f.layer === 'F.Cu' || f.layer === 'B.Cu') {
        const vias = g.flashes.filter((x) => x.func === 'ViaPad');
        const through = board.vias.filter((v) => v.type === 'through');
        expect(vias.length, f.path).toBe(through.length);
        expect(through.filter((v) => !vias.some((x) => near(x, v.position)))).toEqual([]);
      }
    }

    // Drill: plated holes = through-hole pads + vias; non-plated = NPTH pads; at their positions and diameters.
    const drill = (layer: string) =>
      readDrill(fs.readFileSync(path.join(demos.root, r.files.find((f) => f.layer === layer)!.path), 'utf8'));
    const pth = drill('PTH');
    const npth = drill('NPTH');
    const thPads = pads.filter((p) => p.type === 'thru_hole');
    const npPads = pads.filter((p) => p.type === 'np_thru_hole');
    expect(pth.length).toBe(thPads.length + board.vias.length);
    expect(npth.length).toBe(npPads.length);
    for (const [holes, items] of [
      [
        pth,
        [
          ...thPads.map((p) => ({ ...p.position, d: Math.min(p.drill!.w, p.drill!.h) })),
          ...board.vias.map((v) => ({ ...v.position, d: v.drill })),
        ],
      ],
      [npth, npPads.map((p) => ({ ...p.position, d: Math.min(p.drill!.w, p.drill!.h) }))],
    ] as const) {
      const missing = items.filter((i) => !holes.some((h) => near(h, i) && Math.abs(h.diameter - i.d) <= TOL));
      expect(missing).toEqual([]);
    }
  });
});

describe('eda.export_gerber output_dir and refusals', () => {
  it('writes into a given workspace folder, replacing an earlier export only with overwrite: true', async () => {
    const boardPath = demos.board('pic_programmer/pic_programmer.kicad_pcb');
    for (let i = 0; i < 2; i++) {
      const r = await tool.handler({ board_path: boardPath, output_dir: 'fab/pic/', overwrite: i > 0 }, toolContext());
      expect(r.output_dir).toBe('fab/pic');
      expect(r.files).toHaveLength(9 + 2 + 1);
      expect([r.position_file, r.placed_count]).toEqual(['fab/pic/pic_programmer-all-pos.csv', 56]);
    }
    expect(listFiles(path.join(demos.root, 'fab/pic')).sort()).toEqual(
      [
        'B_Cu.gbr',
        'B_Mask.gbr',
        'B_Paste.gbr',
        'B_Silkscreen.gbr',
        'Edge_Cuts.gbr',
        'F_Cu.gbr',
        'F_Mask.gbr',
        'F_Paste.gbr',
        'F_Silkscreen.gbr',
        'NPTH.drl',
        'PTH.drl',
        'all-pos.csv',
        'job.gbrjob',
      ]
        .map((s) => `pic_programmer-${s}`.replace('F_Cu', 'top_layer').replace('B_Cu', 'bottom_layer'))
        .sort(),
    );
  });

  it('refuses an output_dir outside the workspace before writing anything', async () => {
    const boardPath = demos.board('ecc83/ecc83-pp.kicad_pcb');
    const before = listFiles(path.join(demos.root, 'calls'));
    const e = await rejection(
      tool.handler({ board_path: boardPath, output_dir: '../elsewhere', overwrite: false }, toolContext()),
    );
    expect(e).toBeInstanceOf(InvalidArgumentsError);
    expect(e.message).toBe('output_dir "../elsewhere/.check" is outside the workspace');
    expect(listFiles(path.join(demos.root, 'calls'))).toEqual(before);
  });

  it('refuses a KiCad 5 legacy board naming the file and line, writing nothing', async () => {
    fs.mkdirSync(path.join(demos.root, 'bad'), { recursive: true });
    fs.writeFileSync(
      path.join(demos.root, 'bad/legacy.kicad_pcb'),
      'PCBNEW-BOARD Version 1 date 1/1/2019\n$EndBOARD\n',
    );
    const before = listFiles(path.join(demos.root, 'calls'));
    const e = await rejection(tool.handler({ board_path: 'bad/legacy.kicad_pcb', overwrite: false }, toolContext()));
    expect(e).toBeInstanceOf(ToolError);
    expect(e.message).toMatch(/^bad\/legacy\.kicad_pcb: line 1: a KiCad 4\/5 legacy board/);
    expect(listFiles(path.join(demos.root, 'calls'))).toEqual(before);
  });
});
