import { atom, child, children, hasFlag, num, parseSexpr, SexprError, type SExpr, type SList } from './sexpr.ts';

/**
 * A native reader of KiCad boards (`.kicad_pcb`, the S-expression format of KiCad 5 (`module`) and 6 (`footprint`)):
 * nets, footprints with their pads (absolute positions, nets, pin function and type), tracks, vias and zones. The file
 * is hostile data: anything that is not a KiCad board (a legacy `PCBNEW-BOARD` text file, a schematic, malformed or
 * truncated S-expressions) is a BoardError naming the file and the line or the token; numbers are NaN-free.
 * Units are millimetres, angles degrees, y down as in KiCad.
 */
export interface BoardNet {
  code: number;
  name: string;
}
export interface BoardLayer {
  id: number;
  name: string;
  type: string;
  user_name?: string;
}
export interface Point {
  x: number;
  y: number;
}
export type PadType = 'smd' | 'thru_hole' | 'np_thru_hole' | 'connect';
export interface BoardPad {
  /** The footprint's reference. */
  reference: string;
  number: string;
  type: PadType;
  shape: string;
  /** Absolute position: the footprint's position plus the pad's offset turned by the footprint's rotation. */
  position: Point;
  /** Absolute orientation (KiCad writes the pad's angle already including the footprint's). */
  rotation: number;
  /** Where the pad's shape is centred: `position` plus the drill's `(offset x y)` turned by the pad's orientation. */
  shape_position: Point;
  size: { w: number; h: number };
  drill: { w: number; h: number } | null;
  /** As written (`*.Cu`, `F&B.Cu` included); copperLayersOf() expands them. */
  layers: string[];
  net: string | null;
  net_code: number;
  pinfunction?: string;
  pintype?: string;
  /** KiCad 6: not plotted on copper layers where it connects to nothing. */
  remove_unused_layers: boolean;
}
export interface BoardFootprint {
  reference: string;
  value: string;
  lib_id: string;
  layer: string;
  position: Point;
  rotation: number;
  attributes: string[];
  pads: BoardPad[];
}
export interface BoardTrack {
  kind: 'segment' | 'arc';
  start: Point;
  end: Point;
  mid?: Point;
  width: number;
  layer: string;
  net: string | null;
}
export interface BoardVia {
  position: Point;
  size: number;
  drill: number;
  type: 'through' | 'blind' | 'micro';
  layers: string[];
  net: string | null;
  remove_unused_layers: boolean;
}
export interface BoardZone {
  net: string | null;
  layers: string[];
}
export interface Board {
  file: string;
  version: number;
  generator: string;
  layers: BoardLayer[];
  /** The copper layers in stack order (F.Cu, inner layers, B.Cu). */
  copper_layers: string[];
  nets: BoardNet[];
  footprints: BoardFootprint[];
  tracks: BoardTrack[];
  vias: BoardVia[];
  zones: BoardZone[];
}

/** The newest board format KiCad 6.0.11 reads (`(version 20211014)`); KiCad 7 and later write newer ones. */
export const KICAD6_BOARD_VERSION = 20211014;

export class BoardError extends Error {
  override name = 'BoardError';
  readonly file: string;
  readonly line: number | undefined;
  constructor(file: string, message: string, line?: number) {
    super(`${file}: ${message}`);
    this.file = file;
    this.line = line;
  }
}

/**
 * KiCad 9.0's board writer drops the opening parenthesis of a pad's teardrop `filter_ratio`, writing
 * `(curved_edges no)filter_ratio 0.9)` (RoyalBlue54L-Feather in kicad-demos 9.0.8). KiCad's own parser reads a keyword
 * with or without its `(` there, so the file opens in KiCad; read literally, the list closes one level early and the
 * board ends before `(embedded_fonts no)`. Exactly that token sequence is put back as `(filter_ratio`; the text keeps
 * its lines, so errors still name the file's own line numbers. Nothing else is repaired.
 */
export const repairKicad9Teardrops = (text: string) => text.replaceAll(')filter_ratio ', ')(filter_ratio ');

/** Parses the text of a `.kicad_pcb`; `file` names it in errors. */
export function parseBoard(text: string, file: string): Board {
  const lead = text.replace(/^\uFEFF/, '').trimStart();
  if (lead.startsWith('PCBNEW-BOARD'))
    throw new BoardError(
      file,
      'line 1: a KiCad 4/5 legacy board ("PCBNEW-BOARD" text format), not a KiCad S-expression board: open and save it in KiCad 6',
      1,
    );
  let root: SList;
  try {
    root = parseSexpr(repairKicad9Teardrops(text));
  } catch (err) {
    if (err instanceof SexprError) throw new BoardError(file, `not a KiCad board: ${err.message}`, err.line);
    throw err;
  }
  if (root[0] !== 'kicad_pcb') {
    const what =
      root[0] === 'kicad_sch' ? ' (a KiCad schematic)' : root[0] === 'kicad_symbol_lib' ? ' (a symbol library)' : '';
    throw new BoardError(
      file,
      `line 1: not a KiCad board: the file starts with "(${root[0]}"${what}, not "(kicad_pcb"`,
      1,
    );
  }
  const version = num(atom(root, 'version'));
  if (!version) throw new BoardError(file, 'line 1: a board without (version ...): not a file KiCad wrote', 1);

  const layers: BoardLayer[] = [];
  for (const e of child(root, 'layers')?.slice(1) ?? []) {
    if (typeof e === 'string' || typeof e[1] !== 'string' || typeof e[2] !== 'string') continue;
    const user = typeof e[3] === 'string' ? e[3] : undefined;
    layers.push({ id: num(e[0], -1), name: e[1], type: e[2], ...(user ? { user_name: user } : {}) });
  }
  // In stack order, top to bottom: KiCad 6 numbers F.Cu 0, In1.Cu 1 ... B.Cu 31, KiCad 9 F.Cu 0, B.Cu 2, In1.Cu 4 ...
  const stackPos = (l: BoardLayer) => (l.name === 'F.Cu' ? -Infinity : l.name === 'B.Cu' ? Infinity : l.id);
  const copper_layers = layers
    .filter((l) => l.name.endsWith('.Cu'))
    .sort((a, b) => stackPos(a) - stackPos(b))
    .map((l) => l.name);
  const nets: BoardNet[] = children(root, 'net').map((n) => ({ code: num(n[1], -1), name: str(n[2]) }));
  const netName = new Map(nets.map((n) => [n.code, n.name]));
  const netOf = (list: SList): string | null => {
    const n = child(list, 'net');
    if (!n) return null;
    const name = typeof n[2] === 'string' ? n[2] : netName.get(num(n[1], -1));
    return name ? name : null;
  };

  const footprints: BoardFootprint[] = [];
  const tracks: BoardTrack[] = [];
  const vias: BoardVia[] = [];
  const zones: BoardZone[] = [];
  for (let k = 1; k < root.length; k++) {
    const e = root[k]!;
    if (typeof e === 'string') continue;
    switch (e[0]) {
      case 'footprint':
      case 'module':
        footprints.push(readFootprint(e, netOf));
        break;
      case 'segment':
      case 'arc':
        tracks.push({
          kind: e[0],
          start: xy(child(e, 'start')),
          end: xy(child(e, 'end')),
          ...(e[0] === 'arc' ? { mid: xy(child(e, 'mid')) } : {}),
          width: num(atom(e, 'width')),
          layer: str(atom(e, 'layer')),
          net: netOf(e),
        });
        break;
      case 'via':
        vias.push({
          position: xy(child(e, 'at')),
          size: num(atom(e, 'size')),
          drill: num(atom(e, 'drill')),
          type: hasFlag(e, 'micro') ? 'micro' : hasFlag(e, 'blind') ? 'blind' : 'through',
          layers: strings(child(e, 'layers')),
          net: netOf(e),
          remove_unused_layers: !!child(e, 'remove_unused_layers'),
        });
        break;
      case 'zone':
        zones.push({ net: netOf(e) ?? nonEmpty(atom(e, 'net_name')), layers: zoneLayers(e) });
        break;
    }
  }
  const generator = atom(root, 'generator') ?? atom(root, 'host') ?? '';
  return { file, version, generator, layers, copper_layers, nets, footprints, tracks, vias, zones };
}

function readFootprint(e: SList, netOf: (l: SList) => string | null): BoardFootprint {
  const at = child(e, 'at');
  const position = xy(at);
  const rotation = num(at?.[3]);
  const props = new Map<string, string>();
  for (const p of children(e, 'property')) if (typeof p[1] === 'string') props.set(p[1], str(p[2]));
  for (const t of children(e, 'fp_text')) {
    if ((t[1] === 'reference' || t[1] === 'value') && typeof t[2] === 'string' && !props.has(cap(t[1])))
      props.set(cap(t[1]), t[2]);
  }
  const reference = props.get('Reference') ?? '';
  const rad = (rotation * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const pads: BoardPad[] = children(e, 'pad').map((p) => {
    const pat = child(p, 'at');
    const local = xy(pat);
    const drill = child(p, 'drill');
    const size = child(p, 'size');
    const pf = atom(p, 'pinfunction');
    const abs = { x: position.x + local.x * cos + local.y * sin, y: position.y - local.x * sin + local.y * cos };
    const rotation = num(pat?.[3]);
    const off = drill ? xy(child(drill, 'offset')) : { x: 0, y: 0 };
    const pr = (rotation * Math.PI) / 180;
    const pt = atom(p, 'pintype');
    return {
      reference,
      number: str(p[1]),
      type: padType(p[2]),
      shape: str(p[3]),
      // KiCad's RotatePoint: a positive angle turns counter-clockwise on screen, where y points down.
      position: round(abs),
      rotation,
      shape_position: round({
        x: abs.x + off.x * Math.cos(pr) + off.y * Math.sin(pr),
        y: abs.y - off.x * Math.sin(pr) + off.y * Math.cos(pr),
      }),
      size: { w: num(size?.[1]), h: num(size?.[2]) },
      drill: drill ? drillSize(drill) : null,
      layers: strings(child(p, 'layers')),
      net: netOf(p),
      net_code: num(child(p, 'net')?.[1]),
      ...(pf !== undefined ? { pinfunction: pf } : {}),
      ...(pt !== undefined ? { pintype: pt } : {}),
      remove_unused_layers: !!child(p, 'remove_unused_layers'),
    };
  });
  return {
    reference,
    value: props.get('Value') ?? '',
    lib_id: str(e[1]),
    layer: str(atom(e, 'layer')),
    position,
    rotation,
    attributes: (child(e, 'attr')?.slice(1) ?? []).filter((a): a is string => typeof a === 'string'),
    pads,
  };
}

/** The copper layers a pad or via is on, `*.Cu` and `F&B.Cu` expanded against the board's copper layers. */
export function copperLayersOf(board: Board, layers: readonly string[]): string[] {
  const out = new Set<string>();
  for (const l of layers) {
    if (l === '*.Cu') board.copper_layers.forEach((c) => out.add(c));
    else if (l === 'F&B.Cu') ['F.Cu', 'B.Cu'].forEach((c) => out.add(c));
    else if (board.copper_layers.includes(l)) out.add(l);
  }
  return board.copper_layers.filter((c) => out.has(c));
}

/** Every pad of the board. */
export function boardPads(board: Board): BoardPad[] {
  return board.footprints.flatMap((f) => f.pads);
}

function padType(v: SExpr | undefined): PadType {
  return v === 'smd' || v === 'thru_hole' || v === 'np_thru_hole' || v === 'connect' ? v : 'smd';
}

/** `(drill 1.2)`, `(drill oval 1.2 2)`, either with an `(offset x y)`. */
function drillSize(d: SList): { w: number; h: number } {
  const nums = d.slice(1).filter((v): v is string => typeof v === 'string' && v !== 'oval');
  const w = num(nums[0]);
  return { w, h: d[1] === 'oval' ? num(nums[1], w) : w };
}

function zoneLayers(e: SList): string[] {
  const many = child(e, 'layers');
  if (many) return strings(many);
  const one = atom(e, 'layer');
  return one ? [one] : [];
}

function xy(l: SList | undefined): Point {
  return { x: num(l?.[1]), y: num(l?.[2]) };
}

function round(p: Point): Point {
  return { x: Math.round(p.x * 1e6) / 1e6, y: Math.round(p.y * 1e6) / 1e6 };
}

function strings(l: SList | undefined): string[] {
  return (l?.slice(1) ?? []).filter((v): v is string => typeof v === 'string');
}

function str(v: SExpr | undefined): string {
  return typeof v === 'string' ? v : '';
}

function nonEmpty(v: string | undefined): string | null {
  return v ? v : null;
}

function cap(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}
