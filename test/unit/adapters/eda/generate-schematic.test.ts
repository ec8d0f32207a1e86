import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  generateSchematic,
  isPowerName,
  type SchematicSpec,
} from '../../../../actors/adapters/eda/generate-schematic.ts';
import { connectivity } from '../../../../workers/eda/connectivity.ts';
import { loadSchematic } from '../../../../workers/eda/schematic.ts';
import { PIN_TYPES } from '../../../../workers/eda/schematic.types.ts';
import { generateSchematicTool } from '../../../../actors/adapters/eda/generate-schematic.tool.ts';
import { atom, child, children, num, parseSexpr, type SExpr, type SList } from '../../../../workers/eda/sexpr.ts';
import { InvalidArgumentsError, type ToolContext } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import {
  expectedNets,
  netsFromFile,
  placedPins,
  rcLowPass,
  regulator,
  sortedNets,
} from './generate-schematic.fixtures.ts';
import { kicadDemos } from '../../../support/kicad-demos.ts';

describe('generateSchematic', () => {
  it('writes a KiCad 6 file with one embedded symbol per shape, instances and sheet instances', () => {
    const r = generateSchematic(regulator());
    const root = parseSexpr(r.text);
    expect(root[0]).toBe('kicad_sch');
    expect(atom(root, 'version')).toBe('20211123');
    expect(atom(root, 'generator')).toBe('eeschema');
    const libIds = children(child(root, 'lib_symbols')!, 'symbol').map((s) => s[1]);
    expect(libIds.sort()).toEqual(
      ['generated:C', 'generated:Conn_01x02', 'generated:Conn_01x03', 'generated:LM7805', 'power:PWR_FLAG'].sort(),
    );
    const refs = children(child(root, 'symbol_instances')!, 'path').map((p) => atom(p, 'reference'));
    expect(refs).toEqual(['#FLG01', '#FLG02', 'C1', 'C2', 'J1', 'J2', 'U1']);
    expect(child(child(root, 'sheet_instances')!, 'path')![1]).toBe('/');
    expect(atom(child(root, 'title_block')!, 'title')).toBe('LM7805 5 V regulator');
    const uuids = r.text.match(/\(uuid [0-9a-f-]{36}\)/g)!;
    expect(new Set(uuids).size).toBe(uuids.length);
    const u1 = children(root, 'symbol').find((s) => children(s, 'property').some((p) => p[2] === 'U1'))!;
    const props = new Map(children(u1, 'property').map((p) => [p[1], p[2]]));
    expect(props.get('MPN')).toBe('LM7805CT');
    expect(props.get('Footprint')).toBe('Package_TO_SOT_THT:TO-220-3_Vertical');
    expect(r).toMatchObject({ components: 5, nets: 3, no_connects: 1, power_flags: 2, global_labels: 3 + 5 + 2 });
  });

  it('puts every pin end on its wire stub with the net label at the other end (the regulator)', () => {
    const spec = regulator();
    const root = parseSexpr(generateSchematic(spec).text);
    const { nets, noConnect } = netsFromFile(root);
    // VIN and GND carry U1's power_in pins and no power_out: global labels and a flag each; +5V has no power_in pin.
    expect(sortedNets(nets)).toEqual(expectedNets(spec, ['VIN', 'GND']));
    expect(nets.get('VIN')!.sort()).toEqual(['#FLG01.1', 'C1.1', 'J1.1', 'U1.1']);
    expect(noConnect).toEqual(['J2.3']);
    const kinds = new Map([...children(root, 'label'), ...children(root, 'global_label')].map((l) => [l[1], l[0]]));
    expect(Object.fromEntries(kinds)).toEqual({ VIN: 'global_label', GND: 'global_label', '+5V': 'label' });
  });

  it('reads back exactly the requested nets of an RC low-pass with an op-amp buffer, flags on undriven power nets', () => {
    const spec = rcLowPass();
    const r = generateSchematic(spec);
    const root = parseSexpr(r.text);
    expect(sortedNets(netsFromFile(root).nets)).toEqual(expectedNets(spec, ['GND', '+3V3']));
    expect(r.power_flags).toBe(2);
    expect(children(child(root, 'lib_symbols')!, 'symbol').map((s) => s[1])).toContain('Amplifier_Operational:TLV9001');
    expect(r.wires).toBe(spec.connections.reduce((n, c) => n + c.pins.length, 0) + 2);
  });

  it('places components on the 2.54 mm grid without overlapping', () => {
    const spec = rcLowPass();
    for (let i = 0; i < 12; i++)
      spec.components.push({
        reference: `R${10 + i}`,
        value: `${i}k`,
        pins: [
          { number: '1', type: 'passive' },
          { number: '2', type: 'passive' },
        ],
      });
    const root = parseSexpr(generateSchematic(spec).text);
    const { pins, boxes } = placedPins(root);
    for (const p of pins) {
      expect(Math.abs(p.x / 2.54 - Math.round(p.x / 2.54))).toBeLessThan(1e-6);
      expect(Math.abs(p.y / 2.54 - Math.round(p.y / 2.54))).toBeLessThan(1e-6);
    }
    // Grow each box over its pins' stubs and labels (text about 1 mm a character at 1.27 mm, left or right of the anchor).
    const labels = [...children(root, 'label'), ...children(root, 'global_label')].map((l) => {
      const at = child(l, 'at')!;
      return {
        x: num(at[1]),
        y: num(at[2]),
        w: (l[1] as string).length + (l[0] === 'global_label' ? 2 : 0),
        left: at[3] === '180',
      };
    });
    for (const p of pins) {
      const l = labels.find((l) => Math.abs(l.y - p.y) < 1e-6 && Math.abs(Math.abs(l.x - p.x) - 2.54) < 1e-6);
      if (!l) continue;
      const box = boxes.get(p.ref)!;
      box[0] = Math.min(box[0], l.left ? l.x - l.w : l.x);
      box[2] = Math.max(box[2], l.left ? l.x : l.x + l.w);
    }
    const list = [...boxes];
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const [a, b] = [list[i]![1], list[j]![1]];
        const apart = a[2] + 2.54 < b[0] || b[2] + 2.54 < a[0] || a[3] < b[1] || b[3] < a[1];
        expect(apart, `${list[i]![0]} and ${list[j]![0]} overlap`).toBe(true);
      }
  });

  it('recognises power net names', () => {
    for (const n of ['GND', 'AGND', 'GNDA', 'VCC', 'VDD_IO', '+3V3', '+5V', '-12V', '+3.3V', 'VBUS'])
      expect(isPowerName(n), n).toBe(true);
    for (const n of ['IN', 'OUT', 'SDA', 'FILT', 'V_SENSE_ADC', 'RESET']) expect(isPowerName(n), n).toBe(false);
  });

  it('escapes names and keeps every pin type', () => {
    const types = PIN_TYPES;
    const r = generateSchematic({
      components: [
        {
          reference: 'U1',
          value: 'odd "part" \\ x',
          pins: types.map((type, i) => ({ number: String(i + 1), name: `P"${i}`, type })),
        },
      ],
      connections: [{ net: 'A "net"', pins: ['U1.1', 'U1.2'] }],
    });
    const lib = child(parseSexpr(r.text), 'lib_symbols')!;
    const pins = children(children(children(lib, 'symbol')[0]!, 'symbol')[1]!, 'pin');
    expect(new Set(pins.map((p) => p[1]))).toEqual(new Set(types));
    expect(children(parseSexpr(r.text), 'label')[0]![1]).toBe('A "net"');
  });
});

describe('generateSchematic refuses bad input, naming the item', () => {
  const refusal = (mutate: (s: SchematicSpec) => void) => {
    const spec = regulator();
    mutate(spec);
    try {
      generateSchematic(spec);
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidArgumentsError);
      return (err as InvalidArgumentsError).message;
    }
    throw new Error('accepted');
  };
  it.each([
    ['an unknown pin', (s: SchematicSpec) => s.connections[0]!.pins.push('U1.9'), /U1\.9 is not a pin of U1/],
    ['an unknown component', (s: SchematicSpec) => s.connections[0]!.pins.push('Q7.1'), /Q7\.1 names no component/],
    [
      'a pin in two nets',
      (s: SchematicSpec) => s.connections[2]!.pins.push('C1.1'),
      /C1\.1 is in net VIN and net \+5V/,
    ],
    [
      'a connected pin marked no-connect',
      (s: SchematicSpec) => s.no_connect!.push('U1.2'),
      /U1\.2 is in net GND and no_connect/,
    ],
    ['a duplicate reference', (s: SchematicSpec) => (s.components[3]!.reference = 'C1'), /duplicate reference C1/],
    ['an empty net', (s: SchematicSpec) => s.connections.push({ net: 'SENSE', pins: [] }), /net SENSE is empty/],
    [
      'a net listed twice',
      (s: SchematicSpec) => s.connections.push({ net: 'VIN', pins: ['J2.3'] }),
      /net VIN is listed twice/,
    ],
    ['an unannotated reference', (s: SchematicSpec) => (s.components[2]!.reference = 'C?'), /"C\?" is not annotated/],
    [
      'a duplicate pin number',
      (s: SchematicSpec) => s.components[1]!.pins.push({ number: '2', type: 'input' }),
      /U1 has pin 2 twice/,
    ],
    ['a mandatory field', (s: SchematicSpec) => (s.components[1]!.fields = { Value: 'x' }), /field "Value" of U1/],
    [
      'a lib_id shared by other pins',
      (s: SchematicSpec) => {
        s.components[0]!.lib_id = 'Connector:Conn';
        s.components[4]!.lib_id = 'Connector:Conn';
      },
      /J1 and J2 share lib_id Connector:Conn/,
    ],
  ])('%s', (_name, mutate, message) => expect(refusal(mutate)).toMatch(message));
});

describe("the adapter's own schematic reader and connectivity", () => {
  it.each([
    ['regulator', regulator],
    ['RC low-pass', rcLowPass],
  ])('finds exactly the requested nets and pins in the %s', async (_name, make) => {
    const spec = make();
    const text = generateSchematic(spec).text;
    const { nets } = connectivity(await loadSchematic('gen.kicad_sch', () => Promise.resolve(text)));
    const named = nets.filter((n) => !n.auto);
    // A local label's net is sheet-qualified (/FILT), a global label's is not, as in KiCad; PWR_FLAGs are not nodes.
    expect(
      new Map(named.map((n) => [n.name.replace(/^\//, ''), n.nodes.map((p) => `${p.reference}.${p.pin}`).sort()])),
    ).toEqual(new Map(spec.connections.map((c) => [c.net, [...c.pins].sort()])));
    const rest = nets
      .filter((n) => n.auto)
      .map((n) => ({ pins: n.nodes.map((p) => `${p.reference}.${p.pin}`), nc: n.no_connect }));
    expect(rest).toEqual((spec.no_connect ?? []).map((p) => ({ pins: [p], nc: true })));
  });
});

/** The (head, parent head) pairs of a tree. */
function headPairs(e: SExpr, parent: string, out: Set<string>): Set<string> {
  if (typeof e === 'string') return out;
  out.add(`${e[0]} in ${parent || '(top)'}`);
  for (const c of e.slice(1)) headPairs(c, e[0], out);
  return out;
}

// The generator writes KiCad 6.0 files: its grammar is judged against KiCad 6's demos (test/fixtures/kicad6).
const DEMOS = kicadDemos(6) ?? '';
const demoFiles = () =>
  (fs.readdirSync(DEMOS, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.kicad_sch'))
    .map((f) => fs.readFileSync(path.join(DEMOS, f), 'utf8'))
    .filter((t) => t.startsWith('(kicad_sch (version 20211123)'));

describe.skipIf(!DEMOS)("the demos' grammar (kicad-demos, KiCad 6.0)", () => {
  it('uses only (head, parent head) pairs that KiCad 6 demo schematics use', () => {
    const files = demoFiles();
    expect(files.length).toBeGreaterThan(10);
    const demo = new Set<string>();
    for (const t of files) headPairs(parseSexpr(t), '', demo);
    for (const spec of [regulator(), rcLowPass()]) {
      const mine = headPairs(parseSexpr(generateSchematic(spec).text), '', new Set());
      expect([...mine].filter((p) => !demo.has(p))).toEqual([]);
    }
  });
});

describe('eda.generate_schematic tool', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-sch-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const tool = generateSchematicTool(new Workspace(root));
  const call = (args: Record<string, unknown>) => {
    const tc = { outputFiles: [] as string[] } as unknown as ToolContext;
    return tool
      .handler({ overwrite: false, power_flags: true, ...regulator(), ...args } as never, tc)
      .then((r) => ({ r, tc }));
  };

  it('writes the file into the workspace and reports it', async () => {
    const { r, tc } = await call({ output_path: 'boards/reg.kicad_sch' });
    const text = fs.readFileSync(path.join(root, 'boards/reg.kicad_sch'), 'utf8');
    expect(r).toMatchObject({
      schematic_path: 'boards/reg.kicad_sch',
      components: 5,
      nets: 3,
      bytes: Buffer.byteLength(text),
    });
    expect(tc.outputFiles).toEqual(['boards/reg.kicad_sch']);
    expect(parseSexpr(text)[0]).toBe('kicad_sch');
    expect(fs.readdirSync(path.join(root, 'boards'))).toEqual(['reg.kicad_sch']);
  });

  it('refuses to overwrite unless asked, and overwrites when asked', async () => {
    await call({ output_path: 'o.kicad_sch' });
    const before = fs.readFileSync(path.join(root, 'o.kicad_sch'), 'utf8');
    await expect(call({ output_path: 'o.kicad_sch' })).rejects.toThrow(/exists; pass overwrite: true/);
    expect(fs.readFileSync(path.join(root, 'o.kicad_sch'), 'utf8')).toBe(before);
    await call({ output_path: 'o.kicad_sch', overwrite: true });
    expect(fs.readFileSync(path.join(root, 'o.kicad_sch'), 'utf8')).not.toBe(before);
  });

  it('writes nothing for invalid input or a path outside the workspace', async () => {
    await expect(
      call({ output_path: 'new/bad.kicad_sch', connections: [{ net: 'X', pins: ['R9.1'] }] }),
    ).rejects.toThrow(/R9\.1/);
    expect(fs.existsSync(path.join(root, 'new'))).toBe(false);
    await expect(call({ output_path: '../escape.kicad_sch' })).rejects.toThrow(/outside the workspace/);
    expect(fs.existsSync(path.join(root, '..', 'escape.kicad_sch'))).toBe(false);
  });
});
