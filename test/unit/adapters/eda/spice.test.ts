import { describe, expect, it } from 'vitest';
import type { Connectivity, Net } from '../../../../workers/eda/connectivity.ts';
import type { PlacedSymbol, Schematic } from '../../../../workers/eda/schematic.types.ts';
import { sheetDirectives, sheetTexts } from '../../../../actors/adapters/eda/spice-directives.ts';
import { comparePins, NodeNames, nodeName, spiceValue } from '../../../../actors/adapters/eda/spice-value.ts';
import { exportSpice, libraryFiles, nodeOrder, partModel } from '../../../../actors/adapters/eda/spice.ts';

describe('spiceValue: passive values as SPICE numbers', () => {
  it.each([
    ['1k', '1k'],
    ['4k7', '4.7k'],
    ['4K7', '4.7k'],
    ['2M2', '2.2Meg'],
    ['1M', '1Meg'],
    ['1Meg', '1Meg'],
    ['1MEG', '1Meg'],
    ['10m', '10m'],
    ['100mH', '100m'],
    ['22K', '22k'],
    ['2.2K', '2.2k'],
    ['1UF', '1u'],
    ['4.7µF', '4.7u'],
    ['4.7μ', '4.7u'],
    ['100nF', '100n'],
    ['100 nF', '100n'],
    ['220pF', '220p'],
    ['3p3', '3.3p'],
    ['1fF', '1f'],
    ['1f', '1f'],
    ['10F', '10'],
    ['4R7', '4.7'],
    ['100R', '100'],
    ['470', '470'],
    ['10Ω', '10'],
    ['10 ohm', '10'],
    ['2,2k', '2.2k'],
    ['.5', '0.5'],
    ['1G', '1G'],
  ])('%s -> %s', (from, to) => expect(spiceValue(from)).toBe(to));

  it.each(['AC 1', '{rval}', 'laser diode', 'DC 10', '1.2.3k', '4.7k7', ''])('leaves %j as it is', (v) =>
    expect(spiceValue(v)).toBe(v.trim()),
  );

  it('converts only R, C and L values, and a Spice_Model wins over the value', () => {
    expect(partModel('R', {}, '4k7')).toBe('4.7k');
    expect(partModel('C', {}, '1UF')).toBe('1u');
    expect(partModel('V', {}, '1M')).toBe('1M');
    expect(partModel('Q', {}, 'Q2N2222')).toBe('Q2N2222');
    expect(partModel('V', { Spice_Model: ' dc 0 ac 1 ' }, 'AC')).toBe('dc 0 ac 1');
    expect(partModel('R', { Spice_Model: '{rload}' }, '1k')).toBe('{rload}');
  });
});

describe('node order and names', () => {
  it('orders pins by number ascending, or as Spice_Node_Sequence says', () => {
    expect(nodeOrder(['10', '2', '1', '3'], undefined)).toEqual(['1', '2', '3', '10']);
    expect(nodeOrder(['B1', 'A2', 'A10', 'A1'], '')).toEqual(['A1', 'A2', 'A10', 'B1']);
    expect(nodeOrder(['1', '2'], '2 1')).toEqual(['2', '1']);
    expect(nodeOrder(['1', '2', '3'], ' 3, 1,2 ')).toEqual(['3', '1', '2']);
    expect(['2', '10', '1'].sort(comparePins)).toEqual(['1', '2', '10']);
  });

  it('sanitises net names for SPICE', () => {
    expect(nodeName('Net-(C1-Pad2)')).toBe('Net-_C1-Pad2_');
    expect(nodeName('/lowpass')).toBe('lowpass');
    expect(nodeName('/sub/in put')).toBe('sub/in_put');
    expect(nodeName('+12V')).toBe('+12V');
    expect(nodeName('a=b,c{d}')).toBe('a_b_c_d_');
  });

  it('maps GND and 0 to node 0 and keeps names unique without regard to case', () => {
    const n = new NodeNames();
    expect([n.of('GND'), n.of('0'), n.of('/out'), n.of('OUT'), n.of('/a b'), n.of('a_b'), n.of('/out')]).toEqual([
      '0',
      '0',
      'out',
      'OUT_2',
      'a_b',
      'a_b_2',
      'out',
    ]);
  });
});

describe('sheet directives', () => {
  it('reads the top-level text items only, not the texts inside library symbols', () => {
    const file =
      '(kicad_sch (version 20211123) (lib_symbols (symbol "V" (symbol "V_0_1" (text "V" (at 0 0 0)))))\n' +
      '  (text ".tran 1u 10m\\n" (at 1 2 0))\n  (text "a note" (at 3 4 0)))';
    expect(sheetTexts('a.kicad_sch', file)).toEqual([
      { file: 'a.kicad_sch', text: '.tran 1u 10m\n' },
      { file: 'a.kicad_sch', text: 'a note' },
    ]);
  });

  it('keeps continuations, includes and titles; refuses what the circuit tool refuses', () => {
    const d = sheetDirectives([
      { file: 's', text: 'notes: .ac here is prose' },
      { file: 's', text: '*.ac dec 10 1 1Meg' },
      { file: 's', text: '.title My filter\n.model D1N D(Is=1e-14\n+ N=1.8)\n.options reltol=1e-4\n.end' },
      { file: 's', text: '.include "models/op.lib"\n.lib lib/x.lib typ\n.options shell=1\n.model M file="/etc/x"' },
    ]);
    expect(d.title).toBe('My filter');
    expect(d.statements).toEqual(['.model D1N D(Is=1e-14\n+ N=1.8)', '.options reltol=1e-4']);
    expect(d.includes).toEqual([
      { card: '.include', file: 'models/op.lib', rest: '', item: '.include "models/op.lib"' },
      { card: '.lib', file: 'lib/x.lib', rest: ' typ', item: '.lib lib/x.lib typ' },
    ]);
    expect(d.skipped.map((s) => s.item)).toEqual(['.end', '.options shell=1', '.model M file="/etc/x"']);
    expect(d.skipped[1]!.reason).toMatch(/option shell is not an allowed simulator option/);
    expect(d.skipped[2]!.reason).toMatch(/file= parameter/);
  });
});

const pin = (number: string) => ({ number, name: '', type: 'passive' as const, hidden: false, at: { x: 0, y: 0 } });
function symbol(reference: string, value: string, pins: string[], fields: Record<string, string> = {}, unit = 1) {
  return {
    uuid: `${reference}-${unit}`,
    sheet: '/',
    libId: 'x:y',
    reference,
    value,
    footprint: '',
    unit,
    fields: { Reference: reference, Value: value, ...fields },
    inBom: true,
    onBoard: true,
    power: reference.startsWith('#'),
    at: { x: 0, y: 0 },
    pins: pins.map(pin),
  } satisfies PlacedSymbol;
}
const net = (code: number, name: string, nodes: string[]): Net => ({
  code,
  name,
  auto: false,
  nodes: nodes.map((n) => {
    const [reference, p] = n.split('.');
    return { reference: reference!, pin: p!, pin_name: '', pin_type: 'passive', sheet: '/' };
  }),
  labels: [],
  sheets: ['/'],
  no_connect: false,
});

describe('exportSpice', () => {
  const symbols = [
    symbol('#PWR1', 'GND', ['1']),
    symbol('R1', '4k7', ['2', '1']),
    symbol('U1', 'TL072', ['1', '2', '3', '8', '4'], { Spice_Primitive: 'X', Spice_Lib_File: 'tl072.lib' }, 1),
    symbol('U1', 'TL072', ['5', '6', '7', '8', '4'], { Spice_Primitive: 'X', Spice_Lib_File: 'tl072.lib' }, 2),
    symbol('D1', '1N4148', ['1', '2'], { Spice_Node_Sequence: '2 1' }),
    symbol('TP1', 'probe', ['1'], { Spice_Netlist_Enabled: 'N' }),
    symbol('V1', 'DC 5', ['1', '2'], { Spice_Lib_File: '/outside.lib' }),
  ];
  const sch: Schematic = {
    root: 'a/b.kicad_sch',
    title: 'Test',
    files: ['a/b.kicad_sch'],
    sheets: [
      {
        instance: { path: '/', names: '/', file: 'a/b.kicad_sch' },
        symbols,
        wires: [],
        buses: [],
        busEntries: [],
        junctions: [],
        noConnects: [],
        labels: [],
        sheetPins: [],
      },
    ],
  };
  const conn: Connectivity = {
    groups: [],
    nets: [
      net(1, 'GND', ['R1.1', 'U1.4', 'D1.1', 'V1.2']),
      net(2, '/in', ['R1.2', 'U1.3', 'V1.1']),
      net(3, 'Net-(D1-Pad2)', ['D1.2', 'U1.1', 'U1.2']),
      net(4, '/VCC', ['U1.8']),
    ],
  };
  const texts = [{ file: 'a/b.kicad_sch', text: '.tran 1u 1m\n.control\nrun\n.endc' }];

  it('lists the libraries to resolve', () => {
    expect(libraryFiles(sch, texts)).toEqual(['tl072.lib', '/outside.lib']);
  });

  it('writes one line per part in pin order, ground as 0, unconnected pins as their own nodes, .end last', () => {
    const libraries = new Map([
      ['tl072.lib', { include: '../a/tl072.lib' }],
      ['/outside.lib', { reason: 'is outside the workspace' }],
    ]);
    const r = exportSpice(sch, conn, { texts, libraries });
    expect(r.text.split('\n')).toEqual([
      '.title Test',
      '.include "../a/tl072.lib"',
      'D1 Net-_D1-Pad2_ 0 1N4148',
      'R1 0 in 4.7k',
      'XU1 Net-_D1-Pad2_ Net-_D1-Pad2_ in 0 NC-U1-5 NC-U1-6 NC-U1-7 VCC TL072',
      'V1 in 0 DC 5',
      '.tran 1u 1m',
      '.end',
      '',
    ]);
    expect(r.components.map((c) => c.name)).toEqual(['D1', 'R1', 'XU1', 'V1']);
    expect(r.directives).toEqual(['.include "../a/tl072.lib"', '.tran 1u 1m']);
    expect(r.skipped.map((s) => s.item)).toEqual(['TP1', '.control', 'run', '.endc', 'Spice_Lib_File /outside.lib']);
    expect(r.skipped.at(-1)!.reason).toBe('library /outside.lib: is outside the workspace');
  });

  it('skips a part whose line the circuit tool would refuse', () => {
    const bad = structuredClone(sch);
    bad.sheets[0]!.symbols.push(symbol('B1', 'x', ['1', '2'], { Spice_Model: 'v=1 file=/etc/passwd' }));
    const r = exportSpice(bad, conn, { texts: [], libraries: new Map() });
    expect(r.components.map((c) => c.reference)).not.toContain('B1');
    expect(r.skipped.find((s) => s.item === 'B1')!.reason).toMatch(/file= parameter/);
    expect(r.skipped.find((s) => s.item === 'tl072.lib' || s.item === 'Spice_Lib_File tl072.lib')!.reason).toMatch(
      /not resolved/,
    );
  });
});
