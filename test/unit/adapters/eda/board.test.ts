import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BoardError, boardPads, copperLayersOf, parseBoard } from '../../../../workers/eda/board.ts';
import { kicadDemos, SYSTEM_DEMOS } from '../../../support/kicad-demos.ts';

// The hand-checked figures are KiCad 6.0.11's demo files (test/fixtures/kicad6); KiCad 9's pcbnew is the reference
// for the boards of both versions.
const K6 = kicadDemos(6);
const K9 = kicadDemos(9);
const demo = (rel: string, dir = K6 ?? K9 ?? SYSTEM_DEMOS) => `${dir}/${rel}`;
const read = (rel: string, dir?: string) => parseBoard(fs.readFileSync(demo(rel, dir), 'utf8'), rel);

// What KiCad's own engine says about a board: every pad (reference, number, absolute position, net, attribute, the
// copper layers of its layer set the board enables, the centre of its shape, which a drill offset moves), and the counts of vias, tracks (with vias), copper layers, nets.
const PCBNEW_DUMP = `
import pcbnew, sys, json
b = pcbnew.LoadBoard(sys.argv[1])
pads = []
for fp in b.GetFootprints():
    for p in fp.Pads():
        pos = p.GetPosition()
        try:
            shape = p.ShapePos()
        except TypeError:  # KiCad 9: a pad's shape is per layer (padstacks); its principal layer's
            shape = p.ShapePos(p.GetPrincipalLayer())
        pads.append([fp.GetReference(), p.GetNumber(), pos.x / 1e6, pos.y / 1e6, p.GetNetname(), p.GetAttribute(),
                     [b.GetStandardLayerName(l) for l in p.GetLayerSet().CuStack() if b.IsLayerEnabled(l)],
                     shape.x / 1e6, shape.y / 1e6])
vias = [t for t in b.GetTracks() if t.Type() == pcbnew.PCB_VIA_T]
print(json.dumps({"pads": pads, "vias": len(vias), "tracks": len(b.GetTracks()),
                  "copper": b.GetCopperLayerCount(), "nets": b.GetNetCount()}))
`;
const hasPcbnew = (() => {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import pcbnew'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const ATTRIBUTE = ['thru_hole', 'smd', 'connect', 'np_thru_hole']; // pcbnew.PAD_ATTRIB order

const BOARDS = [
  'pic_programmer/pic_programmer.kicad_pcb',
  'kit-dev-coldfire-xilinx_5213/kit-dev-coldfire-xilinx_5213.kicad_pcb', // 4 copper layers
  'custom_pads_test/custom_pads_test.kicad_pcb', // custom and trapezoid pads
  'stickhub/StickHub.kicad_pcb', // SMD on both sides, rotated footprints
  'complex_hierarchy/complex_hierarchy.kicad_pcb', // TO-92 pads with drill offsets, on rotated footprints
  'microwave/microwave.kicad_pcb', // a KiCad 5 S-expression board: (module ...)
  'test_xil_95108/carte_test.kicad_pcb',
  'video/video.kicad_pcb', // 7.4 MB
];

describe('parseBoard on the KiCad demos', () => {
  it.skipIf(!K6)('reads pic_programmer as checked by hand against the file and pcbnew', () => {
    const b = read('pic_programmer/pic_programmer.kicad_pcb');
    expect(b.version).toBe(20211014);
    expect(b.copper_layers).toEqual(['F.Cu', 'B.Cu']);
    expect(b.layers.find((l) => l.name === 'F.Cu')).toEqual({
      id: 0,
      name: 'F.Cu',
      type: 'signal',
      user_name: 'top_layer',
    });
    expect(b.nets).toHaveLength(112);
    expect(b.nets[17]).toEqual({ code: 17, name: 'VCC' });
    expect(b.footprints).toHaveLength(63);
    expect(boardPads(b)).toHaveLength(247);
    expect(b.vias).toHaveLength(6);
    expect(b.tracks).toHaveLength(370);
    const c1 = b.footprints.find((f) => f.reference === 'C1')!;
    expect(c1).toMatchObject({
      value: '100µF',
      lib_id: 'Capacitor_THT:CP_Axial_L18.0mm_D6.5mm_P25.00mm_Horizontal',
      layer: 'F.Cu',
      position: { x: 110.49, y: 78.867 },
      rotation: 180,
      attributes: ['through_hole'],
    });
    // Pad 2 sits at (25, 0) in the footprint; turned 180 degrees it lands 25 mm to the left.
    expect(c1.pads.map((p) => [p.number, p.type, p.shape, p.position, p.net, p.pintype])).toEqual([
      ['1', 'thru_hole', 'rect', { x: 110.49, y: 78.867 }, 'VCC', 'passive'],
      ['2', 'thru_hole', 'oval', { x: 85.49, y: 78.867 }, 'GND', 'passive'],
    ]);
    expect(c1.pads[0]).toMatchObject({
      size: { w: 2.4, h: 2.4 },
      drill: { w: 1.2, h: 1.2 },
      layers: ['*.Cu', '*.Mask'],
    });
    expect(copperLayersOf(b, c1.pads[0]!.layers)).toEqual(['F.Cu', 'B.Cu']);
  });

  it.skipIf(!K6)('reads pin functions, SMD pads on the back and zones (StickHub)', () => {
    const b = read('stickhub/StickHub.kicad_pcb');
    const pads = boardPads(b);
    expect(pads.some((p) => p.pinfunction)).toBe(true);
    const back = b.footprints.filter((f) => f.layer === 'B.Cu');
    expect(back.length).toBeGreaterThan(0);
    // SMD pads of back footprints are on B.Cu, or on no copper at all (paste-only pads such as "" smd ... "B.Paste").
    const smd = back.flatMap((f) => f.pads).filter((p) => p.type === 'smd');
    for (const p of smd) expect(copperLayersOf(b, p.layers)).toEqual(p.layers.includes('B.Cu') ? ['B.Cu'] : []);
    expect(smd.filter((p) => p.layers.includes('B.Cu')).length).toBeGreaterThan(0);
    expect(smd.filter((p) => p.layers.join() === 'B.Paste').length).toBeGreaterThan(0);
    expect(b.zones.length).toBeGreaterThan(0);
    for (const z of b.zones) expect(z.layers.length).toBeGreaterThan(0);
  });

  const versions = [K6 && { major: 6, dir: K6 }, K9 && { major: 9, dir: K9 }].filter((v) => !!v);
  const cases = versions.flatMap(({ major, dir }) =>
    BOARDS.filter((rel) => fs.existsSync(demo(rel, dir))).map((rel) => ({ major, dir, rel })),
  );
  it.skipIf(!hasPcbnew).each(cases)('agrees with pcbnew pad by pad on KiCad $major $rel', ({ dir, rel }) => {
    const b = read(rel, dir);
    const ref = JSON.parse(
      execFileSync('/usr/bin/python3', ['-c', PCBNEW_DUMP, demo(rel, dir)], { maxBuffer: 1 << 28, encoding: 'utf8' }),
    );
    expect(b.copper_layers).toHaveLength(ref.copper);
    expect(b.nets).toHaveLength(ref.nets);
    expect(b.vias).toHaveLength(ref.vias);
    expect(b.tracks.length + b.vias.length).toBe(ref.tracks);
    const pads = boardPads(b);
    expect(pads).toHaveLength(ref.pads.length);
    const mine = pads.map((p) => [
      p.reference,
      p.number,
      p.position.x,
      p.position.y,
      p.net ?? '',
      p.type,
      copperLayersOf(b, p.layers),
      p.shape_position.x,
      p.shape_position.y,
    ]);
    ref.pads.forEach((r: any[], i: number) => {
      const m = mine[i]!;
      expect([m[0], m[1], m[4], m[5], m[6]]).toEqual([r[0], r[1], r[4], ATTRIBUTE[r[5]], r[6]]);
      expect(Math.abs((m[2] as number) - r[2])).toBeLessThan(1e-4);
      expect(Math.abs((m[3] as number) - r[3])).toBeLessThan(1e-4);
      expect(Math.abs((m[7] as number) - r[7])).toBeLessThan(1e-4);
      expect(Math.abs((m[8] as number) - r[8])).toBeLessThan(1e-4);
    });
  });
});

describe('parseBoard refuses what is not a KiCad board, naming the file and the line or token', () => {
  const refusal = (text: string, file = 'bad.kicad_pcb') => {
    try {
      parseBoard(text, file);
    } catch (err) {
      expect(err).toBeInstanceOf(BoardError);
      return (err as BoardError).message;
    }
    throw new Error('expected a BoardError');
  };

  it('a KiCad 4/5 legacy board', () => {
    const m = refusal('PCBNEW-BOARD Version 1 date 2019-01-01\n\n# Created by Pcbnew(5.1)\n$GENERAL\n$EndGENERAL\n');
    expect(m).toMatch(/^bad\.kicad_pcb: line 1: a KiCad 4\/5 legacy board \("PCBNEW-BOARD"/);
  });

  it('a schematic', () => {
    expect(refusal('(kicad_sch (version 20211123) (generator eeschema))', 'x.kicad_sch')).toBe(
      'x.kicad_sch: line 1: not a KiCad board: the file starts with "(kicad_sch" (a KiCad schematic), not "(kicad_pcb"',
    );
  });

  it('a file that is not KiCad at all', () => {
    expect(refusal('{"hello": "json"}\n')).toMatch(
      /^bad\.kicad_pcb: not a KiCad board: line 1: .*expected "\(".*\{"hello"/,
    );
    expect(refusal('')).toMatch(/^bad\.kicad_pcb: not a KiCad board: line 1: empty file/);
  });

  it('a truncated board names the line where it ended', () => {
    const text = fs.readFileSync(demo('pic_programmer/pic_programmer.kicad_pcb'), 'utf8');
    const cut = text.slice(0, 20_000);
    const lines = cut.split('\n').length;
    expect(refusal(cut, 'pic.kicad_pcb')).toMatch(
      new RegExp(`^pic\\.kicad_pcb: not a KiCad board: line ${lines}: unexpected end of file`),
    );
  });

  it("reads KiCad 9.0's teardrop filter_ratio written without its parenthesis, and nothing else unbalanced", () => {
    // As RoyalBlue54L-Feather (kicad-demos 9.0.8) has it: KiCad reads the keyword with or without its "(".
    const pad = (tail: string) =>
      '(kicad_pcb (version 20241229) (net 0 "") (footprint "x" (layer "F.Cu") (at 1 2)' +
      ' (property "Reference" "R1" (at 0 0))\n (pad "1" smd rect (at 0 0) (size 1 1) (layers "F.Cu")' +
      ` (teardrops (best_length_ratio 0.5) (curved_edges no)${tail} (enabled yes))))\n (embedded_fonts no))`;
    const b = parseBoard(pad('filter_ratio 0.9)'), 'k9.kicad_pcb');
    expect(b.version).toBe(20241229);
    expect(boardPads(b)).toHaveLength(1);
    // A different keyword without its "(" is still the malformed text it is, named with the file's own line.
    expect(refusal(pad('other_ratio 0.9)'), 'k9.kicad_pcb')).toMatch(
      /^k9\.kicad_pcb: not a KiCad board: line 3: text after the closing parenthesis/,
    );
  });

  it('a board without a version, and hostile numbers read as 0 rather than NaN', () => {
    expect(refusal('(kicad_pcb (generator x))')).toMatch(/without \(version/);
    const b = parseBoard(
      '(kicad_pcb (version 20211014) (net 0 "") (footprint "x" (layer "F.Cu") (at NaN 1e999)' +
        ' (fp_text reference "R1" (at 0 0)) (pad "1" smd rect (at abc 1) (size 1 1) (layers "F.Cu"))))',
      'h.kicad_pcb',
    );
    expect(boardPads(b)[0]!.position).toEqual({ x: 0, y: 1 });
    expect(boardPads(b)[0]).toMatchObject({ reference: 'R1', net: null });
  });
});
