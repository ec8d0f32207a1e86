import { expect } from 'vitest';
import { child, children, num, type SList } from '../../../../workers/eda/sexpr.ts';
import type { SchematicSpec } from '../../../../actors/adapters/eda/generate-schematic.ts';

const passive = (n: string, name?: string) => ({ number: n, type: 'passive' as const, ...(name ? { name } : {}) });

/** An LM7805 regulator: input connector, regulator, input and output capacitors. */
export const regulator = (): SchematicSpec => ({
  title: 'LM7805 5 V regulator',
  components: [
    {
      reference: 'J1',
      value: 'Conn_01x02',
      footprint: 'Connector:Conn_01x02',
      pins: [passive('1', 'VIN'), passive('2', 'GND')],
    },
    {
      reference: 'U1',
      value: 'LM7805',
      footprint: 'Package_TO_SOT_THT:TO-220-3_Vertical',
      fields: { Manufacturer: 'Texas Instruments', MPN: 'LM7805CT' },
      pins: [
        { number: '1', name: 'VI', type: 'power_in' },
        { number: '2', name: 'GND', type: 'power_in' },
        { number: '3', name: 'VO', type: 'power_out' },
      ],
    },
    {
      reference: 'C1',
      value: '330n',
      footprint: 'Capacitor_SMD:C_0805_2012Metric',
      pins: [passive('1'), passive('2')],
    },
    {
      reference: 'C2',
      value: '100n',
      footprint: 'Capacitor_SMD:C_0805_2012Metric',
      pins: [passive('1'), passive('2')],
    },
    { reference: 'J2', value: 'Conn_01x03', pins: [passive('1', '+5V'), passive('2', 'GND'), passive('3', 'NC')] },
  ],
  connections: [
    { net: 'VIN', pins: ['J1.1', 'U1.1', 'C1.1'] },
    { net: 'GND', pins: ['J1.2', 'U1.2', 'C1.2', 'C2.2', 'J2.2'] },
    { net: '+5V', pins: ['U1.3', 'C2.1', 'J2.1'] },
  ],
  no_connect: ['J2.3'],
});

/** An RC low-pass between two connectors, with an op-amp buffer whose supply pins are power inputs. */
export const rcLowPass = (): SchematicSpec => ({
  components: [
    { reference: 'J1', value: 'Conn_01x02', pins: [passive('1', 'IN'), passive('2', 'GND')] },
    { reference: 'R1', value: '10k', footprint: 'Resistor_SMD:R_0603_1608Metric', pins: [passive('1'), passive('2')] },
    { reference: 'C1', value: '10n', pins: [passive('1'), passive('2')] },
    {
      reference: 'U1',
      value: 'TLV9001',
      lib_id: 'Amplifier_Operational:TLV9001',
      fields: { MPN: 'TLV9001IDBVR' },
      pins: [
        { number: '1', name: 'OUT', type: 'output' },
        { number: '2', name: 'V-', type: 'power_in' },
        { number: '3', name: '+', type: 'input' },
        { number: '4', name: '-', type: 'input' },
        { number: '5', name: 'V+', type: 'power_in' },
      ],
    },
    { reference: 'J2', value: 'Conn_01x03', pins: [passive('1', 'OUT'), passive('2', 'VCC'), passive('3', 'GND')] },
  ],
  connections: [
    { net: 'IN', pins: ['J1.1', 'R1.1'] },
    { net: 'FILT', pins: ['R1.2', 'C1.1', 'U1.3'] },
    { net: 'OUT', pins: ['U1.1', 'U1.4', 'J2.1'] },
    { net: 'GND', pins: ['J1.2', 'C1.2', 'U1.2', 'J2.3'] },
    { net: '+3V3', pins: ['U1.5', 'J2.2'] },
  ],
});

export interface FilePin {
  ref: string;
  number: string;
  type: string;
  x: number;
  y: number;
}

/** Each placed symbol's pins at their sheet positions, computed from the file alone (rotation 0: y flips). */
export function placedPins(root: SList): { pins: FilePin[]; boxes: Map<string, [number, number, number, number]> } {
  const libs = new Map(children(child(root, 'lib_symbols')!, 'symbol').map((s) => [s[1] as string, s]));
  const pins: FilePin[] = [];
  const boxes = new Map<string, [number, number, number, number]>();
  for (const s of children(root, 'symbol')) {
    const at = child(s, 'at')!;
    if (num(at[3]) !== 0 || child(s, 'mirror')) throw new Error('the generator places symbols unrotated');
    const [X, Y] = [num(at[1]), num(at[2])];
    const ref = children(s, 'property').find((p) => p[1] === 'Reference')![2] as string;
    const lib = libs.get(child(s, 'lib_id')![1] as string)!;
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    const grow = (x: number, y: number) => {
      box[0] = Math.min(box[0], x);
      box[1] = Math.min(box[1], y);
      box[2] = Math.max(box[2], x);
      box[3] = Math.max(box[3], y);
    };
    for (const unit of children(lib, 'symbol')) {
      for (const r of children(unit, 'rectangle'))
        for (const k of ['start', 'end']) grow(X + num(child(r, k)![1]), Y - num(child(r, k)![2]));
      for (const p of children(unit, 'pin')) {
        const pa = child(p, 'at')!;
        const pin = {
          ref,
          number: child(p, 'number')![1] as string,
          type: p[1] as string,
          x: X + num(pa[1]),
          y: Y - num(pa[2]),
        };
        pins.push(pin);
        grow(pin.x, pin.y);
      }
    }
    boxes.set(ref, box);
  }
  return { pins, boxes };
}

const key = (x: number, y: number) => `${x.toFixed(3)},${y.toFixed(3)}`;

/** Nets read back from the file geometry: pin end -> its stub wire -> the label at the wire's other end. */
export function netsFromFile(root: SList) {
  const { pins } = placedPins(root);
  const wires = children(root, 'wire').map((w) => children(child(w, 'pts')!, 'xy').map((p) => [num(p[1]), num(p[2])]));
  const labels = new Map<string, string>();
  for (const l of [...children(root, 'label'), ...children(root, 'global_label')]) {
    const at = child(l, 'at')!;
    labels.set(key(num(at[1]), num(at[2])), l[1] as string);
  }
  const ncs = new Set(children(root, 'no_connect').map((n) => key(num(child(n, 'at')![1]), num(child(n, 'at')![2]))));
  const nets = new Map<string, string[]>();
  const noConnect: string[] = [];
  for (const p of pins) {
    const here = key(p.x, p.y);
    const stubs = wires.filter((w) => w.some(([x, y]) => key(x!, y!) === here));
    expect(labels.has(here), `no label sits on pin ${p.ref}.${p.number}`).toBe(false);
    if (ncs.has(here)) {
      expect(stubs).toHaveLength(0);
      noConnect.push(`${p.ref}.${p.number}`);
      continue;
    }
    if (!stubs.length) continue;
    expect(stubs, `one stub at ${p.ref}.${p.number}`).toHaveLength(1);
    const other = stubs[0]!.find(([x, y]) => key(x!, y!) !== here)!;
    const net = labels.get(key(other[0]!, other[1]!));
    expect(net, `a label at the far end of ${p.ref}.${p.number}'s stub`).toBeDefined();
    nets.set(net!, [...(nets.get(net!) ?? []), `${p.ref}.${p.number}`]);
  }
  return { nets, noConnect };
}

export const expectedNets = (spec: SchematicSpec, flagged: string[]) =>
  new Map(
    spec.connections.map((c) => {
      const k = flagged.indexOf(c.net);
      return [c.net, [...c.pins, ...(k >= 0 ? [`#FLG0${k + 1}.1`] : [])].sort()];
    }),
  );
export const sortedNets = (m: Map<string, string[]>) => new Map([...m].map(([n, p]) => [n, [...p].sort()]));
