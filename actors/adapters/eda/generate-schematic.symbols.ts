/**
 * The symbols `eda.generate_schematic` draws, in KiCad 6 library coordinates (mm, Y up): one rectangle body per distinct
 * component shape with its pins on the left and right on the 2.54 mm grid, a small box for two-pin passives, and KiCad's
 * PWR_FLAG. Text helpers write atoms the way eeschema does (quoted strings with `\` escapes, numbers to 4 decimals).
 */

import { PIN_TYPES, type PinType } from '../../../workers/eda/schematic.types.ts';

export { PIN_TYPES, type PinType };

export interface PinSpec {
  number: string;
  name?: string;
  type: PinType;
}

/** The connection grid: pins, wires and labels land on multiples of it. */
export const GRID = 2.54;
export const PIN_LENGTH = 2.54;
/** Rough width of one character of 1.27 mm text (KiCad's stroke font is narrower; this errs on the roomy side). */
export const CHAR_W = 1.1;

export interface ShapePin extends PinSpec {
  /** Connection point (the pin's outer end) in library coordinates. */
  x: number;
  y: number;
  side: 'left' | 'right';
}

export interface Shape {
  libId: string;
  pins: ShapePin[];
  /** Body rectangle, library coordinates (top > bottom). */
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** A two-pin passive drawn as a small box with pin names and numbers hidden. */
  small: boolean;
}

const LEFT_TYPES = new Set<PinType>(['input', 'power_in']);
const RIGHT_TYPES = new Set<PinType>(['output', 'power_out', 'open_collector', 'open_emitter', 'tri_state']);

export const ceilGrid = (v: number) => Math.ceil(v / GRID - 1e-9) * GRID;

/** Whether two passive pins without meaningful names make a resistor/capacitor-like part. */
export function isSmallPassive(pins: PinSpec[]): boolean {
  return (
    pins.length === 2 &&
    pins.every((p) => p.type === 'passive' && (p.name === undefined || p.name === '~' || p.name === p.number))
  );
}

/** Lays out a component's pins: inputs and power inputs left, outputs right, the rest on the shorter side, in order. */
export function buildShape(libId: string, pins: PinSpec[]): Shape {
  if (isSmallPassive(pins)) {
    const [a, b] = pins as [PinSpec, PinSpec];
    return {
      libId,
      small: true,
      left: -GRID,
      right: GRID,
      top: 1.016,
      bottom: -1.016,
      pins: [
        { ...a, x: -2 * GRID, y: 0, side: 'left' },
        { ...b, x: 2 * GRID, y: 0, side: 'right' },
      ],
    };
  }
  const left: PinSpec[] = [];
  const right: PinSpec[] = [];
  for (const p of pins) {
    if (LEFT_TYPES.has(p.type)) left.push(p);
    else if (RIGHT_TYPES.has(p.type)) right.push(p);
  }
  for (const p of pins) {
    if (LEFT_TYPES.has(p.type) || RIGHT_TYPES.has(p.type)) continue;
    (left.length <= right.length ? left : right).push(p);
  }
  const rows = Math.max(left.length, right.length, 1);
  const topY = Math.floor((rows - 1) / 2) * GRID;
  const nameLen = (p: PinSpec | undefined) => (p?.name && p.name !== '~' ? p.name.length : 0);
  let textW = 0;
  for (let k = 0; k < rows; k++) textW = Math.max(textW, (nameLen(left[k]) + nameLen(right[k])) * CHAR_W);
  const half = Math.max(2 * GRID, ceilGrid(textW / 2 + GRID));
  const place = (list: PinSpec[], side: 'left' | 'right'): ShapePin[] =>
    list.map((p, k) => ({
      ...p,
      x: (side === 'left' ? -1 : 1) * (half + PIN_LENGTH),
      y: topY - k * GRID,
      side,
    }));
  return {
    libId,
    small: false,
    left: -half,
    right: half,
    top: topY + GRID,
    bottom: topY - (rows - 1) * GRID - GRID,
    pins: [...place(left, 'left'), ...place(right, 'right')],
  };
}

/** A number as eeschema writes it: at most 4 decimals, no trailing zeros, no `-0`. */
export function fmt(v: number): string {
  const r = Math.round(v * 10000) / 10000;
  return Object.is(r, -0) || r === 0 ? '0' : String(r);
}

/** A quoted string atom with eeschema's escapes. */
export function q(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}

export const FONT = '(effects (font (size 1.27 1.27)))';
export const FONT_HIDE = '(effects (font (size 1.27 1.27)) hide)';
const STROKE = (w: number) => `(stroke (width ${fmt(w)}) (type default) (color 0 0 0 0))`;

/** Where a shape's Reference, Value and Footprint fields sit, library coordinates. */
export function fieldSpots(s: Shape): { ref: [number, number]; value: [number, number]; footprint: [number, number] } {
  return {
    ref: [0, s.top + 1.27],
    value: [0, s.bottom - 1.27],
    footprint: [0, s.bottom - 3.81],
  };
}

/** The `lib_symbols` entry of a shape (indented for its place in the file). */
export function libSymbolText(s: Shape, refPrefix: string): string {
  const name = s.libId.slice(s.libId.indexOf(':') + 1);
  const spots = fieldSpots(s);
  const flags = s.small ? '(pin_numbers hide) (pin_names (offset 0) hide)' : '(pin_names (offset 0.508))';
  const prop = (key: string, value: string, id: number, [x, y]: [number, number], effects: string) =>
    `      (property ${q(key)} ${q(value)} (id ${id}) (at ${fmt(x)} ${fmt(y)} 0)\n        ${effects}\n      )\n`;
  const pins = s.pins
    .map(
      (p) =>
        `        (pin ${p.type} line (at ${fmt(p.x)} ${fmt(p.y)} ${p.side === 'left' ? 0 : 180}) (length ${fmt(PIN_LENGTH)})\n` +
        `          (name ${q(p.name || '~')} ${FONT})\n` +
        `          (number ${q(p.number)} ${FONT})\n        )\n`,
    )
    .join('');
  return (
    `    (symbol ${q(s.libId)} ${flags} (in_bom yes) (on_board yes)\n` +
    prop('Reference', refPrefix, 0, spots.ref, FONT) +
    prop('Value', name, 1, spots.value, FONT) +
    prop('Footprint', '', 2, spots.footprint, FONT_HIDE) +
    prop('Datasheet', '', 3, [0, 0], FONT_HIDE) +
    `      (symbol ${q(`${name}_0_1`)}\n` +
    `        (rectangle (start ${fmt(s.left)} ${fmt(s.top)}) (end ${fmt(s.right)} ${fmt(s.bottom)})\n` +
    `          ${STROKE(0.254)}\n          (fill (type background))\n        )\n      )\n` +
    `      (symbol ${q(`${name}_1_1`)}\n${pins}      )\n    )\n`
  );
}

export const PWR_FLAG_ID = 'power:PWR_FLAG';

/** KiCad's own PWR_FLAG (power library): one power_out pin of length 0 at its origin, the flag drawn above it. */
export function pwrFlagSymbolText(): string {
  return (
    `    (symbol ${q(PWR_FLAG_ID)} (power) (pin_numbers hide) (pin_names (offset 0) hide) (in_bom yes) (on_board yes)\n` +
    `      (property "Reference" "#FLG" (id 0) (at 0 1.905 0)\n        ${FONT_HIDE}\n      )\n` +
    `      (property "Value" "PWR_FLAG" (id 1) (at 0 3.81 0)\n        ${FONT}\n      )\n` +
    `      (property "Footprint" "" (id 2) (at 0 0 0)\n        ${FONT_HIDE}\n      )\n` +
    `      (property "Datasheet" "~" (id 3) (at 0 0 0)\n        ${FONT_HIDE}\n      )\n` +
    `      (property "ki_keywords" "power-flag" (id 4) (at 0 0 0)\n        ${FONT_HIDE}\n      )\n` +
    `      (property "ki_description" "Special symbol for telling ERC where power comes from" (id 5) (at 0 0 0)\n        ${FONT_HIDE}\n      )\n` +
    `      (symbol "PWR_FLAG_0_0"\n        (pin power_out line (at 0 0 90) (length 0)\n` +
    `          (name "pwr" ${FONT})\n          (number "1" ${FONT})\n        )\n      )\n` +
    `      (symbol "PWR_FLAG_0_1"\n        (polyline\n          (pts\n` +
    `            (xy 0 0)\n            (xy 0 1.27)\n            (xy -1.016 1.905)\n            (xy 0 2.54)\n            (xy 1.016 1.905)\n            (xy 0 1.27)\n` +
    `          )\n          ${STROKE(0)}\n          (fill (type none))\n        )\n      )\n    )\n`
  );
}
