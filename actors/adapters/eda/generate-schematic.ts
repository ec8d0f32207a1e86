import { randomUUID } from 'node:crypto';
import { InvalidArgumentsError } from '../kit/tool.ts';
import {
  buildShape,
  CHAR_W,
  ceilGrid,
  FONT,
  FONT_HIDE,
  fieldSpots,
  fmt,
  GRID,
  libSymbolText,
  PWR_FLAG_ID,
  pwrFlagSymbolText,
  q,
  type PinSpec,
  type Shape,
} from './generate-schematic.symbols.ts';
import { checkSpec, pinKey, type SchematicSpec } from './generate-schematic.validate.ts';

export type { SchematicSpec } from './generate-schematic.validate.ts';

/**
 * A KiCad 6 schematic (`.kicad_sch`, version 20211123) from a component list and net connections, as text; nothing is
 * written here. Each distinct component shape gets an embedded library symbol (generate-schematic.symbols.ts), each
 * component is placed once on a shelf-packed 2.54 mm grid with room for its labels, and every connected pin gets a
 * 2.54 mm horizontal wire stub from its end outward to a label carrying the net's name (labels of one name join in
 * KiCad). Power nets (a power-like name such as GND, VCC, +3V3, +5V, VDD_IO and a power_in pin on the net) get global
 * labels instead, and when no power_out pin drives such a net, one KiCad PWR_FLAG wired to another global label of that
 * name tells ERC the power comes from outside (unless `power_flags` is false). Pins listed in `no_connect` get a
 * no-connect marker at their end. Invalid input is an InvalidArgumentsError listing every problem.
 */
export interface GeneratedSchematic {
  text: string;
  components: number;
  nets: number;
  labels: number;
  global_labels: number;
  wires: number;
  no_connects: number;
  power_flags: number;
  lib_symbols: number;
  paper: string;
}

const POWER_NAME =
  /^([ADP]?GND[A-Z0-9_]*|GND|VSS[A-Z0-9_]*|VDD[A-Z0-9_]*|VCC[A-Z0-9_]*|VEE[A-Z0-9_]*|VBUS|VBAT|VIN|VMOT|[+-]\d+(\.\d+)?V\d*|[+-]?\d+V\d+|[+-]V[A-Z0-9_]*)$/i;

/** Whether a net name reads like a supply rail or ground. */
export const isPowerName = (net: string) => POWER_NAME.test(net);

const PAPERS: [string, number, number][] = [
  ['A4', 297, 210],
  ['A3', 420, 297],
  ['A2', 594, 420],
  ['A1', 841, 594],
  ['A0', 1189, 841],
];
const MARGIN = 25.4;

export function generateSchematic(spec: SchematicSpec, uuid: () => string = randomUUID): GeneratedSchematic {
  const { netOf, noConnect } = checkSpec(spec);
  const shapes = assignShapes(spec);
  const types = new Map(spec.components.flatMap((c) => c.pins.map((p) => [pinKey(c.reference, p.number), p.type])));
  const pinType = (ref: string) => types.get(ref);
  const powerNets = new Set(
    spec.connections
      .filter((c) => isPowerName(c.net) && c.pins.some((r) => pinType(r) === 'power_in'))
      .map((c) => c.net),
  );
  const labelW = (net: string) => net.length * CHAR_W + (powerNets.has(net) ? 2 * GRID : GRID);

  // Extents of each component around its origin (screen mm: x right, y down), then shelf packing in input order.
  const boxes = spec.components.map((c, i) => {
    const s = shapes[i]!;
    const valueHalf = (Math.max(c.value.length, c.reference.length) * CHAR_W) / 2;
    let left = Math.max(-s.left, valueHalf);
    let right = Math.max(s.right, valueHalf);
    for (const p of s.pins) {
      const net = netOf.get(pinKey(c.reference, p.number));
      const reach = Math.abs(p.x) + (net ? GRID + labelW(net) : GRID);
      if (p.side === 'left') left = Math.max(left, reach);
      else right = Math.max(right, reach);
    }
    return { left, right, up: s.top + 2 * GRID, down: -s.bottom + 2 * GRID };
  });
  // The row width whose packing needs the smallest landscape page (width:height of A-series paper).
  let packed = pack(boxes, Infinity);
  let widths = 0;
  for (const b of boxes) {
    widths += b.left + b.right + 2 * GRID;
    const p = pack(boxes, widths);
    const scale = (r: typeof p) => Math.max(r.maxX / Math.SQRT2, r.rowBottom);
    if (scale(p) < scale(packed)) packed = p;
  }
  const { origins, rowBottom } = packed;
  let maxX = packed.maxX;

  const out = { wires: [] as string[], labels: [] as string[], globals: [] as string[], ncs: [] as string[] };
  const stroke = '(stroke (width 0) (type default) (color 0 0 0 0))';
  const wire = (x1: number, y1: number, x2: number, y2: number) =>
    out.wires.push(
      `  (wire (pts (xy ${fmt(x1)} ${fmt(y1)}) (xy ${fmt(x2)} ${fmt(y2)}))\n    ${stroke}\n    (uuid ${uuid()})\n  )\n`,
    );
  const label = (net: string, lx: number, ly: number, leftward: boolean) => {
    const at = `(at ${fmt(lx)} ${fmt(ly)} ${leftward ? 180 : 0})`;
    if (powerNets.has(net))
      out.globals.push(
        `  (global_label ${q(net)} (shape passive) ${at}\n` +
          `    (effects (font (size 1.27 1.27)) (justify ${leftward ? 'right' : 'left'}))\n    (uuid ${uuid()})\n` +
          `    (property "Intersheet References" "\${INTERSHEET_REFS}" (id 0) (at 0 0 0)\n      ${FONT_HIDE}\n    )\n  )\n`,
      );
    else
      out.labels.push(
        `  (label ${q(net)} ${at}\n    (effects (font (size 1.27 1.27)) (justify ${leftward ? 'right' : 'left'} bottom))\n` +
          `    (uuid ${uuid()})\n  )\n`,
      );
  };

  const instances: { ref: string; uuid: string; value: string; footprint: string }[] = [];
  const symbols: string[] = [];
  const prop = (name: string, value: string, id: number, px: number, py: number, hide: boolean) =>
    `    (property ${q(name)} ${q(value)} (id ${id}) (at ${fmt(px)} ${fmt(py)} 0)\n      ${hide ? FONT_HIDE : FONT}\n    )\n`;
  spec.components.forEach((c, i) => {
    const s = shapes[i]!;
    const [ox, oy] = origins[i]!;
    for (const p of s.pins) {
      const key = pinKey(c.reference, p.number);
      const px = ox + p.x;
      const py = oy - p.y;
      if (noConnect.has(key)) {
        out.ncs.push(`  (no_connect (at ${fmt(px)} ${fmt(py)}) (uuid ${uuid()}))\n`);
        continue;
      }
      const net = netOf.get(key);
      if (!net) continue;
      const ex = p.side === 'left' ? px - GRID : px + GRID;
      wire(px, py, ex, py);
      label(net, ex, py, p.side === 'left');
    }
    const id = uuid();
    const spots = fieldSpots(s);
    const footprint = c.footprint ?? '';
    instances.push({ ref: c.reference, uuid: id, value: c.value, footprint });
    symbols.push(
      `  (symbol (lib_id ${q(s.libId)}) (at ${fmt(ox)} ${fmt(oy)} 0) (unit 1)\n    (in_bom yes) (on_board yes)\n    (uuid ${id})\n` +
        prop('Reference', c.reference, 0, ox + spots.ref[0], oy - spots.ref[1], false) +
        prop('Value', c.value, 1, ox + spots.value[0], oy - spots.value[1], false) +
        prop('Footprint', footprint, 2, ox + spots.footprint[0], oy - spots.footprint[1], true) +
        prop('Datasheet', '', 3, ox, oy, true) +
        Object.entries(c.fields ?? {})
          .map(([k, v], j) => prop(k, v, 4 + j, ox, oy, true))
          .join('') +
        s.pins.map((p) => `    (pin ${q(p.number)} (uuid ${uuid()}))\n`).join('') +
        '  )\n',
    );
  });

  // PWR_FLAGs for power nets nothing drives, in a row under the components.
  const flagged = spec.connections.filter(
    (c) => powerNets.has(c.net) && spec.power_flags !== false && !c.pins.some((r) => pinType(r) === 'power_out'),
  );
  let fx = MARGIN;
  const fy = ceilGrid(rowBottom + 4 * GRID);
  flagged.forEach((c, k) => {
    const id = uuid();
    const ref = `#FLG${String(k + 1).padStart(2, '0')}`;
    instances.push({ ref, uuid: id, value: 'PWR_FLAG', footprint: '' });
    symbols.push(
      `  (symbol (lib_id ${q(PWR_FLAG_ID)}) (at ${fmt(fx)} ${fmt(fy)} 0) (unit 1)\n    (in_bom yes) (on_board yes)\n    (uuid ${id})\n` +
        prop('Reference', ref, 0, fx, fy - 1.905, true) +
        prop('Value', 'PWR_FLAG', 1, fx, fy - 3.81, false) +
        prop('Footprint', '', 2, fx, fy, true) +
        prop('Datasheet', '~', 3, fx, fy, true) +
        `    (pin "1" (uuid ${uuid()}))\n  )\n`,
    );
    wire(fx, fy, fx + GRID, fy);
    label(c.net, fx + GRID, fy, false);
    maxX = Math.max(maxX, fx + GRID + labelW(c.net));
    fx = ceilGrid(fx + Math.max(5 * GRID, 2 * GRID + labelW(c.net)));
  });
  const maxY = flagged.length ? fy + GRID : rowBottom;
  const paper = PAPERS.find(([, w, h]) => maxX + MARGIN <= w && maxY + MARGIN <= h)?.[0] ?? 'A0';

  const libs = [...new Map(shapes.map((s, i) => [s.libId, [s, spec.components[i]!.reference] as const])).values()];
  const libText = libs.map(([s, ref]) => libSymbolText(s, ref.match(/^[A-Za-z_]+/)![0])).join('');
  const sorted = [...instances].sort((a, b) => a.ref.localeCompare(b.ref, 'en', { numeric: true }));
  const text =
    `(kicad_sch (version 20211123) (generator eeschema)\n\n  (uuid ${uuid()})\n\n  (paper ${q(paper)})\n\n` +
    (spec.title ? `  (title_block\n    (title ${q(spec.title)})\n  )\n\n` : '') +
    `  (lib_symbols\n${libText}${flagged.length ? pwrFlagSymbolText() : ''}  )\n\n` +
    [out.ncs, out.wires, out.labels, out.globals, symbols]
      .filter((l) => l.length)
      .map((l) => l.join('') + '\n')
      .join('') +
    `  (sheet_instances\n    (path "/" (page "1"))\n  )\n\n  (symbol_instances\n` +
    sorted
      .map(
        (s) =>
          `    (path ${q(`/${s.uuid}`)}\n      (reference ${q(s.ref)}) (unit 1) (value ${q(s.value)}) (footprint ${q(s.footprint)})\n    )\n`,
      )
      .join('') +
    '  )\n)\n';
  return {
    text,
    components: spec.components.length,
    nets: spec.connections.length,
    labels: out.labels.length + out.globals.length,
    global_labels: out.globals.length,
    wires: out.wires.length,
    no_connects: out.ncs.length,
    power_flags: flagged.length,
    lib_symbols: libs.length + (flagged.length ? 1 : 0),
    paper,
  };
}

interface Box {
  left: number;
  right: number;
  up: number;
  down: number;
}

/** Shelf packing in input order: a row takes boxes until the next would pass `rowLimit`; origins on the grid. */
function pack(boxes: Box[], rowLimit: number) {
  const origins: [number, number][] = [];
  let x = MARGIN;
  let y = MARGIN;
  let rowBottom = MARGIN;
  let maxX = MARGIN;
  for (const b of boxes) {
    if (x > MARGIN && x + b.left + b.right > MARGIN + rowLimit) {
      x = MARGIN;
      y = ceilGrid(rowBottom + 2 * GRID);
    }
    const ox = ceilGrid(x + b.left);
    const oy = ceilGrid(y + b.up);
    origins.push([ox, oy]);
    x = ox + b.right + 2 * GRID;
    maxX = Math.max(maxX, ox + b.right);
    rowBottom = Math.max(rowBottom, oy + b.down);
  }
  return { origins, maxX, rowBottom };
}

/**
 * One library symbol per distinct shape: a caller's lib_id names its shape (components sharing it must have the same
 * pins); otherwise `generated:<prefix>` for a two-pin passive (R, C, L...) or `generated:<value>`, suffixed on a clash.
 */
function assignShapes(spec: SchematicSpec): Shape[] {
  const byId = new Map<string, { sig: string; shape: Shape; ref: string }>();
  const sig = (pins: PinSpec[]) => JSON.stringify(pins.map((p) => [p.number, p.name ?? '~', p.type]));
  const out: Shape[] = new Array(spec.components.length);
  for (const pass of [true, false]) {
    spec.components.forEach((c, i) => {
      if (!!c.lib_id !== pass) return;
      const s = sig(c.pins);
      let id = c.lib_id;
      if (id) {
        const prior = byId.get(id);
        if (prior && prior.sig !== s)
          throw new InvalidArgumentsError(
            `components ${prior.ref} and ${c.reference} share lib_id ${id} with other pins`,
            {
              lib_id: id,
              components: [prior.ref, c.reference],
            },
          );
      } else {
        const small = c.pins.length === 2 && buildShape('x:x', c.pins).small;
        const base = `generated:${(small ? c.reference.match(/^[A-Za-z_]+/)![0] : c.value).replace(/[^A-Za-z0-9_.+-]/g, '_')}`;
        id = base;
        for (let k = 2; byId.has(id) && byId.get(id)!.sig !== s; k++) id = `${base}_${k}`;
      }
      const prior = byId.get(id);
      out[i] = prior ? prior.shape : buildShape(id, c.pins);
      if (!prior) byId.set(id, { sig: s, shape: out[i], ref: c.reference });
    });
  }
  return out;
}
