import { createParser } from '@tracespace/parser';

/**
 * Reads what a test needs from KiCad's fabrication files through @tracespace/parser: the flashes (D03) and regions of
 * a Gerber X2 file with the aperture function (`%TA.AperFunction,...*%` before each `%ADD`) and the pad object
 * attribute (`%TO.P,<ref>,<pin>*%`) in force, and the holes of an Excellon drill file. Coordinates in mm, y flipped
 * back to KiCad's (y down).
 */
export interface Flash {
  x: number;
  y: number;
  /** The aperture's function: ComponentPad, SMDPad,CuDef, ViaPad, ConnectorPad... */
  func: string;
  /** `TO.P` in force: the pad's footprint reference and number. */
  pad: { ref: string; pin: string } | null;
}
export interface GerberContent {
  flashes: Flash[];
  /** Regions (G36/G37) drawn while a `TO.P` pad attribute was in force: custom-shaped and chamfered pads. */
  padRegions: { ref: string; pin: string }[];
  units: string;
}

type Node = { type: string; [k: string]: any };

/** KiCad escapes reserved characters in attribute values as \uXXXX (e.g. `U\u002A\u002A\u002A` for `U***`). */
const unescape = (s: string) =>
  s.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

function tree(text: string): Node[] {
  const parser = createParser();
  parser.feed(text);
  return parser.results().children as unknown as Node[];
}

/** A coordinate string in the file's format ([integer, decimal] digits, leading zeros omitted as KiCad writes). */
function coordinate(v: string, decimals: number): number {
  return v.includes('.') ? Number(v) : Number(v) / 10 ** decimals;
}

export function readGerber(text: string): GerberContent {
  const nodes = tree(text);
  const functions = new Map<string, string>();
  let pendingFunc = '';
  let tool = '';
  let decimals = 6;
  let units = '';
  let pad: { ref: string; pin: string } | null = null;
  let region = false;
  let regionCounted = false;
  let x = 0;
  let y = 0;
  const flashes: Flash[] = [];
  const padRegions: { ref: string; pin: string }[] = [];
  for (const n of nodes) {
    switch (n.type) {
      case 'coordinateFormat':
        decimals = n.format?.[1] ?? decimals;
        break;
      case 'units':
        units = n.units;
        break;
      case 'unimplemented': {
        // tracespace 5.0.0-next.0 drops D-code-like words from an attribute's value (`%TO.P,D1,1,K*%` reads as
        // `%TO.P,1,1,K*%`): the attribute is read from the file's own text at the node's position instead.
        const at = n.position as { start: { offset: number }; end: { offset: number } } | undefined;
        const v = at ? text.slice(at.start.offset, at.end.offset) : String(n.value).replace(/^%|\*%$/g, '');
        const ta = /^TA\.AperFunction,(.*)$/.exec(v);
        if (ta) pendingFunc = ta[1]!;
        const to = /^TO\.P,([^,]*),([^,]*)/.exec(v);
        if (to) pad = { ref: unescape(to[1]!), pin: unescape(to[2]!) };
        if (v === 'TD') {
          pad = null;
          pendingFunc = '';
        }
        break;
      }
      case 'toolDefinition':
        functions.set(n.code, pendingFunc);
        break;
      case 'toolChange':
        tool = n.code;
        break;
      case 'regionMode':
        region = n.region;
        regionCounted = false;
        break;
      case 'graphic': {
        const c = n.coordinates ?? {};
        if (c.x !== undefined) x = coordinate(c.x, decimals);
        if (c.y !== undefined) y = -coordinate(c.y, decimals);
        if (n.graphic === 'shape') flashes.push({ x, y, func: functions.get(tool) ?? '', pad });
        else if (region && pad && !regionCounted && n.graphic === 'segment') {
          padRegions.push(pad);
          regionCounted = true;
        }
        break;
      }
    }
  }
  return { flashes, padRegions, units };
}

/**
 * The holes of a KiCad Excellon file, a routed slot (an oval hole: `G00` to its start, `M15`, `G01` to its end, `M16`)
 * counted once at its middle. tracespace 5.0.0-next.0 stops reading a drill file at the `%` that ends its header
 * (valid Excellon, which KiCad writes), so the test gives it `M95`, the other end-of-header mark, in its place.
 */
export function readDrill(text: string): { x: number; y: number; diameter: number; slot: boolean }[] {
  const nodes = tree(text.replace(/^%$/m, 'M95'));
  const diameters = new Map<string, number>();
  let tool = '';
  let mode = 'drill';
  const holes: { x: number; y: number; diameter: number; slot: boolean }[] = [];
  for (const n of nodes) {
    if (n.type === 'toolDefinition') diameters.set(n.code, n.shape?.diameter ?? NaN);
    if (n.type === 'toolChange') tool = n.code;
    if (n.type === 'interpolateMode') mode = n.mode;
    if (n.type !== 'graphic' || n.coordinates?.x === undefined) continue;
    const x = Number(n.coordinates.x);
    const y = -Number(n.coordinates.y);
    const last = holes.at(-1);
    if (mode === 'line' && last && !last.slot)
      Object.assign(last, { x: (last.x + x) / 2, y: (last.y + y) / 2, slot: true });
    else holes.push({ x, y, diameter: diameters.get(tool) ?? NaN, slot: false });
  }
  return holes;
}
