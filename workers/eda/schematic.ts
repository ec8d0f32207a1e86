import path from 'node:path';
import { EdaBudget } from './limits.ts';
import { atom, child, children, hasFlag, num, parseSexpr, properties, SexprError, type SList } from './sexpr.ts';
import {
  PIN_TYPES,
  type Label,
  type LabelKind,
  type PinType,
  type PlacedPin,
  type PlacedSymbol,
  type Point,
} from './schematic.types.ts';
import type { Schematic, Segment, SheetContent, SheetInstance, SheetPin } from './schematic.types.ts';

/** A schematic that cannot be read: names the file and, where the reader knows it, the line and token. */
export class SchematicError extends Error {
  override name = 'SchematicError';
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.file = file;
  }
}

/** Reads a workspace file (confined by the caller). */
export type ReadText = (file: string) => Promise<string>;

/** KiCad 6's first S-expression schematic version; older files are KiCad 5 legacy text. */
const MIN_VERSION = 20200310;

interface LibPin {
  unit: number;
  style: number;
  pin: Omit<PlacedPin, 'at'> & { at: Point };
}
interface LibSymbol {
  power: boolean;
  pins: LibPin[];
}

/**
 * Parses one schematic file's text, refusing what is not a KiCad 6+ schematic with the file and line; `budget` counts
 * its tokens (and refuses a design over the token limit).
 */
export function parseSchematicText(file: string, text: string, budget?: EdaBudget): SList {
  if (/^\s*EESchema Schematic File/.test(text))
    throw new SchematicError(
      file,
      'a KiCad 5 legacy schematic (EESchema text format): open and save it in KiCad 6 first',
    );
  let root: SList;
  try {
    if (budget) budget.file = file;
    root = parseSexpr(text, budget);
  } catch (err) {
    if (err instanceof SexprError) throw new SchematicError(file, `not a readable KiCad schematic: ${err.message}`);
    throw err;
  }
  if (root[0] !== 'kicad_sch')
    throw new SchematicError(file, `not a KiCad schematic: the file starts with (${root[0]} ...)`);
  const version = num(atom(root, 'version'), 0);
  if (version < MIN_VERSION)
    throw new SchematicError(file, `schematic version ${version || 'missing'} predates KiCad 6`);
  return root;
}

const xy = (list: SList | undefined): Point => ({ x: num(list?.[1]), y: num(list?.[2]) });

/** Library pins of a symbol, from its `NAME_unit_style` sub-symbols (unit 0 and style 0 are shared). */
function libSymbol(def: SList): LibSymbol {
  const pins: LibPin[] = [];
  for (const sub of children(def, 'symbol')) {
    const m = /_(\d+)_(\d+)$/.exec(String(sub[1]));
    const unit = m ? Number(m[1]) : 0;
    const style = m ? Number(m[2]) : 0;
    for (const p of children(sub, 'pin')) {
      const type = (PIN_TYPES as readonly string[]).includes(String(p[1])) ? (p[1] as PinType) : 'unspecified';
      const at = child(p, 'at');
      pins.push({
        unit,
        style,
        pin: {
          number: atom(p, 'number') ?? '',
          name: atom(p, 'name') ?? '',
          type,
          hidden: hasFlag(p, 'hide'),
          at: xy(at),
        },
      });
    }
  }
  return { power: !!child(def, 'power'), pins };
}

/** Library pin position to sheet position: KiCad's Y axis flips, then the symbol's rotation (CCW on screen), then its mirror. */
export function placePoint(p: Point, at: Point, angle: number, mirror: string | undefined): Point {
  let x = p.x;
  let y = -p.y;
  const a = ((((angle % 360) + 360) % 360) * Math.PI) / 180;
  const c = Math.round(Math.cos(a));
  const s = Math.round(Math.sin(a));
  [x, y] = [x * c + y * s, -x * s + y * c];
  if (mirror === 'x') y = -y;
  if (mirror === 'y') x = -x;
  return { x: round(at.x + x), y: round(at.y + y) };
}

/** Coordinates rounded to 1 nm (KiCad's schematic unit is 100 nm) so equal points compare equal. */
export const round = (v: number) => Math.round(v * 1e6) / 1e6;
const pt = (p: Point): Point => ({ x: round(p.x), y: round(p.y) });

/** Instance data of the root's `symbol_instances` (KiCad 6) or each symbol's `instances` (KiCad 7+), by uuid path. */
function rootInstances(
  root: SList,
): Map<string, { reference: string; unit: number; value?: string; footprint?: string }> {
  const out = new Map<string, { reference: string; unit: number; value?: string; footprint?: string }>();
  for (const list of children(root, 'symbol_instances'))
    for (const p of children(list, 'path'))
      out.set(String(p[1]), {
        reference: atom(p, 'reference') ?? '',
        unit: num(atom(p, 'unit'), 1),
        value: atom(p, 'value'),
        footprint: atom(p, 'footprint'),
      });
  return out;
}

function symbolInstances(sym: SList, into: Map<string, { reference: string; unit: number }>) {
  for (const inst of children(sym, 'instances'))
    for (const project of children(inst, 'project'))
      for (const p of children(project, 'path'))
        into.set(`${String(p[1]).replace(/\/$/, '')}/${atom(sym, 'uuid')}`, {
          reference: atom(p, 'reference') ?? '',
          unit: num(atom(p, 'unit'), 1),
        });
}

function segments(list: SList, head: string): Segment[] {
  const out: Segment[] = [];
  for (const w of children(list, head)) {
    const pts = children(child(w, 'pts') ?? ['pts'], 'xy')
      .map(xy)
      .map(pt);
    for (let k = 1; k < pts.length; k++) out.push({ a: pts[k - 1]!, b: pts[k]! });
  }
  return out;
}

const LABEL_HEADS: [string, LabelKind][] = [
  ['label', 'local'],
  ['global_label', 'global'],
  ['hierarchical_label', 'hierarchical'],
];

/**
 * Loads a schematic and its whole hierarchy: every sheet instance (a file used by two sheets is two instances), every
 * symbol with its pins placed in sheet coordinates and its reference for that instance, wires, buses, junctions,
 * labels, no-connect flags and sheet pins. Sheet files resolve against the root file's folder, as KiCad does. The
 * expansion is counted against `budget` as it goes (limits.ts): a design over a limit is refused (EdaLimitError) before
 * the instance, symbol or file that crosses it is read.
 */
export async function loadSchematic(rootFile: string, read: ReadText, budget = new EdaBudget()): Promise<Schematic> {
  const parsed = new Map<string, SList>();
  const tokens = new Map<string, number>();
  const load = async (file: string) => {
    let list = parsed.get(file);
    if (!list) {
      const before = budget.tokens;
      list = parseSchematicText(file, await read(file), budget);
      parsed.set(file, list);
      tokens.set(file, budget.tokens - before);
    }
    return list;
  };
  const root = await load(rootFile);
  const instances = rootInstances(root);
  const dir = path.posix.dirname(rootFile);
  const sheets: SheetContent[] = [];
  const libCache = new Map<SList, Map<string, LibSymbol>>();

  const walk = async (inst: SheetInstance, ancestors: string[]) => {
    const list = await load(inst.file);
    budget.instance(inst.file, ancestors.length - 1, tokens.get(inst.file)!);
    let libs = libCache.get(list);
    if (!libs) {
      libs = new Map(
        children(child(list, 'lib_symbols') ?? ['lib_symbols'], 'symbol').map((d) => [String(d[1]), libSymbol(d)]),
      );
      libCache.set(list, libs);
    }
    const prefix = inst.path === '/' ? '' : inst.path;
    const content: SheetContent = {
      instance: inst,
      symbols: [],
      wires: segments(list, 'wire'),
      buses: segments(list, 'bus'),
      busEntries: children(list, 'bus_entry').map((e) => {
        const a = xy(child(e, 'at'));
        const size = xy(child(e, 'size'));
        return { a: pt(a), b: pt({ x: a.x + size.x, y: a.y + size.y }) };
      }),
      junctions: children(list, 'junction').map((j) => pt(xy(child(j, 'at')))),
      noConnects: children(list, 'no_connect').map((j) => pt(xy(child(j, 'at')))),
      labels: [],
      sheetPins: [],
    };
    for (const [head, kind] of LABEL_HEADS)
      for (const l of children(list, head))
        content.labels.push({
          kind,
          text: String(l[1]),
          at: pt(xy(child(l, 'at'))),
          sheet: inst.path,
          shape: atom(l, 'shape'),
        });
    for (const s of children(list, 'symbol')) {
      const placed = placeSymbol(s, inst, prefix, libs, instances);
      budget.pins(inst.file, placed.reference, placed.pins.length);
      content.symbols.push(placed);
    }
    sheets.push(content);
    const childSheets: SheetInstance[] = [];
    for (const s of children(list, 'sheet')) {
      const uuid = atom(s, 'uuid') ?? '';
      // Sheet name and file are the properties of id 0 and 1 (their names are translated in some files).
      const byId = new Map(children(s, 'property').map((p) => [atom(p, 'id'), typeof p[2] === 'string' ? p[2] : '']));
      const props = properties(s);
      const name = byId.get('0') || props.get('Sheet name') || uuid;
      const file = byId.get('1') || props.get('Sheet file');
      if (!file) throw new SchematicError(inst.file, `sheet "${name}" names no file`);
      const childPath = `${prefix}/${uuid}`;
      for (const p of children(s, 'pin'))
        content.sheetPins.push({
          name: String(p[1]),
          shape: String(p[2] ?? ''),
          at: pt(xy(child(p, 'at'))),
          sheet: inst.path,
          child: childPath,
        });
      childSheets.push({
        path: childPath,
        names: `${inst.names}${name}/`,
        file: path.posix.join(dir, file),
        parent: inst.path,
        sheetUuid: uuid,
      });
    }
    for (const c of childSheets) {
      if (ancestors.includes(c.file))
        throw new SchematicError(inst.file, `sheet file ${c.file} includes itself (a recursive hierarchy)`);
      await walk(c, [...ancestors, c.file]);
    }
  };
  await walk({ path: '/', names: '/', file: rootFile }, [rootFile]);
  return {
    root: rootFile,
    title: atom(child(root, 'title_block') ?? ['title_block'], 'title'),
    sheets,
    files: [...parsed.keys()],
  };
}

function placeSymbol(
  s: SList,
  inst: SheetInstance,
  prefix: string,
  libs: Map<string, LibSymbol>,
  instances: Map<string, { reference: string; unit: number; value?: string; footprint?: string }>,
): PlacedSymbol {
  const uuid = atom(s, 'uuid') ?? '';
  const libId = atom(s, 'lib_id') ?? '';
  const lib = libs.get(atom(s, 'lib_name') ?? libId);
  const atList = child(s, 'at');
  const at = pt(xy(atList));
  const angle = num(atList?.[3]);
  const mirror = atom(s, 'mirror');
  const fields = Object.fromEntries(properties(s));
  const own = new Map<string, { reference: string; unit: number }>();
  symbolInstances(s, own);
  const key = `${prefix}/${uuid}`;
  const known = instances.get(key) ?? own.get(key);
  const unit = known?.unit ?? num(atom(s, 'unit'), 1);
  const style = num(atom(s, 'convert'), 1);
  const reference = known?.reference || fields.Reference || '';
  fields.Reference = reference;
  const value = fields.Value ?? '';
  const pins: PlacedPin[] = (lib?.pins ?? [])
    .filter((p) => (p.unit === 0 || p.unit === unit) && (p.style === 0 || p.style === style))
    .map((p) => ({ ...p.pin, at: placePoint(p.pin.at, at, angle, mirror) }));
  return {
    uuid,
    sheet: inst.path,
    libId,
    reference,
    value,
    footprint: fields.Footprint ?? '',
    unit,
    fields,
    inBom: atom(s, 'in_bom') !== 'no',
    onBoard: atom(s, 'on_board') !== 'no',
    power: lib?.power ?? false,
    at,
    pins,
  };
}
