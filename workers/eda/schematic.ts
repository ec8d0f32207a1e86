import path from 'node:path';
import { EdaBudget } from './limits.ts';
import { expandFields, legacyMessage, netText, sheetFields, tilde } from './schematic-format.ts';
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
import { migratedSimValue } from './sim-migrate.ts';

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

/**
 * The schematic file versions read (docs/eda.md has the table of what changed between them): from the first
 * S-expression schematic (20200310, KiCad 6 development; 6.0 writes 20211123) to KiCad 9.0's (20250114). A newer file
 * is refused naming its version (decision 0135): its new constructs (local power symbols, stacked pin numbers,
 * variants) would be misread silently.
 */
export const MIN_SCHEMATIC_VERSION = 20200310;
export const MAX_SCHEMATIC_VERSION = 20250114;
/** From this version a power symbol's net is its Value field (KiCad 7's "modern power symbols"); before, its pin's name. */
const POWER_VALUE_NAMES_NET = 20230221;

interface LibPin {
  unit: number;
  style: number;
  pin: Omit<PlacedPin, 'at'> & { at: Point };
  /** The pin's alternate functions (KiCad 6+ `(alternate NAME TYPE SHAPE)`): name to electrical type. */
  alternates?: Map<string, PinType>;
}
interface LibSymbol {
  power: boolean;
  pins: LibPin[];
}

/**
 * Lists no schematic tool reads: text effects, line strokes, fills, graphic shapes and images (the reader checks their
 * syntax and keeps none of them).
 */
const UNREAD = new Set(['effects', 'stroke', 'fill', 'polyline', 'rectangle', 'arc', 'circle', 'bezier', 'image']);

/**
 * Parses one schematic file's text, refusing what is not a KiCad 6+ schematic with the file and line; `budget` counts
 * its tokens (and refuses a design over the token limit).
 */
export function parseSchematicText(file: string, text: string, budget?: EdaBudget): SList {
  const legacy = /^\s*EESchema Schematic File Version (\d+)/.exec(text.slice(0, 200));
  if (legacy || /^\s*EESchema Schematic File/.test(text)) throw new SchematicError(file, legacyMessage(legacy?.[1]));
  let root: SList;
  try {
    if (budget) budget.file = file;
    root = parseSexpr(text, budget, UNREAD);
  } catch (err) {
    if (err instanceof SexprError) throw new SchematicError(file, `not a readable KiCad schematic: ${err.message}`);
    throw err;
  }
  if (root[0] !== 'kicad_sch')
    throw new SchematicError(file, `not a KiCad schematic: the file starts with (${root[0]} ...)`);
  const version = num(atom(root, 'version'), 0);
  if (version < MIN_SCHEMATIC_VERSION)
    throw new SchematicError(
      file,
      `schematic version ${version || 'missing'} predates KiCad 6 (${MIN_SCHEMATIC_VERSION})`,
    );
  if (version > MAX_SCHEMATIC_VERSION)
    throw new SchematicError(
      file,
      `schematic version ${version} was written by a KiCad newer than 9.0 (this reader reads versions ` +
        `${MIN_SCHEMATIC_VERSION} to ${MAX_SCHEMATIC_VERSION}, KiCad 6 to 9): save a copy from KiCad 9 ` +
        '(File > Save As in KiCad 9 keeps what 9 can express)',
    );
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
      const type = pinType(p[1]);
      const at = child(p, 'at');
      const alts = children(p, 'alternate');
      pins.push({
        unit,
        style,
        ...(alts.length ? { alternates: new Map(alts.map((a) => [String(a[1]), pinType(a[2])])) } : {}),
        pin: {
          number: tilde(atom(p, 'number')),
          name: tilde(atom(p, 'name')),
          type,
          hidden: hasFlag(p, 'hide'),
          at: xy(at),
        },
      });
    }
  }
  return { power: !!child(def, 'power'), pins };
}

const pinType = (v: unknown): PinType =>
  (PIN_TYPES as readonly string[]).includes(String(v)) ? (v as PinType) : 'unspecified';

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

/**
 * A symbol's own instance data (KiCad 7+), keyed as KiCad 6's `symbol_instances` are: KiCad 7+ paths start with the
 * root schematic's uuid (`/ROOT/SHEET.../`), which KiCad 6's paths leave out.
 */
function symbolInstances(sym: SList, rootUuid: string, into: Map<string, { reference: string; unit: number }>) {
  const rootPrefix = `/${rootUuid}`;
  for (const inst of children(sym, 'instances'))
    for (const project of children(inst, 'project'))
      for (const p of children(project, 'path')) {
        let at = String(p[1]).replace(/\/$/, '');
        if (rootUuid && (at === rootPrefix || at.startsWith(`${rootPrefix}/`))) at = at.slice(rootPrefix.length);
        into.set(`${at}/${atom(sym, 'uuid')}`, {
          reference: atom(p, 'reference') ?? '',
          unit: num(atom(p, 'unit'), 1),
        });
      }
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
  const rootUuid = atom(root, 'uuid') ?? '';
  const dir = path.posix.dirname(rootFile);
  const sheets: SheetContent[] = [];
  const libCache = new Map<SList, Map<string, LibSymbol>>();
  // A symbol of a sheet used N times lists N instance paths: read them once, not once per instance (N^2).
  const ownCache = new Map<SList, Map<string, { reference: string; unit: number }>>();
  const ownInstances = (s: SList) => {
    let own = ownCache.get(s);
    if (!own) {
      ownCache.set(s, (own = new Map()));
      symbolInstances(s, rootUuid, own);
    }
    return own;
  };

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
          text: netText(String(l[1])),
          at: pt(xy(child(l, 'at'))),
          sheet: inst.path,
          shape: atom(l, 'shape'),
        });
    const version = num(atom(list, 'version'), 0);
    for (const s of children(list, 'symbol')) {
      const placed = placeSymbol(s, inst, prefix, libs, instances, version, ownInstances);
      budget.pins(inst.file, placed.reference, placed.pins.length);
      content.symbols.push(placed);
    }
    sheets.push(content);
    const childSheets: SheetInstance[] = [];
    for (const s of children(list, 'sheet')) {
      const uuid = atom(s, 'uuid') ?? '';
      const { name = uuid, file } = sheetFields(s);
      if (!file) throw new SchematicError(inst.file, `sheet "${name}" names no file`);
      const childPath = `${prefix}/${uuid}`;
      for (const p of children(s, 'pin'))
        content.sheetPins.push({
          name: netText(String(p[1])),
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
  const busAliases = new Map<string, string[]>();
  for (const list of parsed.values())
    for (const a of children(list, 'bus_alias'))
      busAliases.set(String(a[1]), (child(a, 'members') ?? ['members']).slice(1).map(String));
  return {
    root: rootFile,
    title: atom(child(root, 'title_block') ?? ['title_block'], 'title'),
    sheets,
    files: [...parsed.keys()],
    busAliases,
  };
}

function placeSymbol(
  s: SList,
  inst: SheetInstance,
  prefix: string,
  libs: Map<string, LibSymbol>,
  instances: Map<string, { reference: string; unit: number; value?: string; footprint?: string }>,
  version: number,
  ownInstances: (s: SList) => Map<string, { reference: string; unit: number }>,
): PlacedSymbol {
  const uuid = atom(s, 'uuid') ?? '';
  const libId = atom(s, 'lib_id') ?? '';
  const lib = libs.get(atom(s, 'lib_name') ?? libId);
  const atList = child(s, 'at');
  const at = pt(xy(atList));
  const angle = num(atList?.[3]);
  const mirror = atom(s, 'mirror');
  const fields = Object.fromEntries(properties(s));
  const own = ownInstances(s);
  const key = `${prefix}/${uuid}`;
  const known = instances.get(key) ?? own.get(key);
  const unit = known?.unit ?? num(atom(s, 'unit'), 1);
  const style = num(atom(s, 'convert'), 1);
  const reference = known?.reference || fields.Reference || '';
  fields.Reference = reference;
  const value = migratedSimValue(fields, expandFields(fields.Value ?? '', fields), reference);
  const power = lib?.power ?? false;
  // An instance's chosen alternate pin function: `(pin "5" (alternate "PB1"))`.
  const chosen = new Map(children(s, 'pin').map((p) => [String(p[1]), atom(p, 'alternate')]));
  const pins: PlacedPin[] = (lib?.pins ?? [])
    .filter((p) => (p.unit === 0 || p.unit === unit) && (p.style === 0 || p.style === style))
    .map((p) => {
      const alt = chosen.get(p.pin.number);
      const altType = alt ? p.alternates?.get(alt) : undefined;
      const pin: PlacedPin = {
        ...p.pin,
        ...(alt && altType ? { name: alt, type: altType } : {}),
        at: placePoint(p.pin.at, at, angle, mirror),
      };
      // A power input names a global net when hidden (KiCad 6) or on a power symbol (KiCad 7 on, for every file
      // it reads): the power symbol's Value from 20230221, the pin's name before and on ordinary parts.
      if (pin.type === 'power_in' && (pin.hidden || power))
        pin.net = power && version >= POWER_VALUE_NAMES_NET && value ? value : pin.name;
      return pin;
    });
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
    power,
    at,
    pins,
  };
}
