import { checkStatements } from '../kit/spice/netlist-policy.ts';
import type { Connectivity } from '../../../workers/eda/connectivity.ts';
import type { PlacedSymbol, Schematic } from '../../../workers/eda/schematic.types.ts';
import { sheetDirectives, type SheetText, type SpiceSkip } from './spice-directives.ts';
import { comparePins, NodeNames, spiceValue } from './spice-value.ts';

export type { SheetText, SpiceSkip } from './spice-directives.ts';

/** How a library file named by a symbol's `Spice_Lib_File` or a sheet's `.include`/`.lib` resolves. */
export type LibraryResolution = { include: string } | { reason: string };

export interface SpiceOptions {
  /** The sheets' text items (`sheetTexts` of every file of `sch.files`). */
  texts: SheetText[];
  /**
   * Each library file as written in the schematic (see `libraryFiles`): the path the `.include` card names (relative
   * to the netlist's folder), or why it is left out (outside the workspace, unreadable, refused by the circuit tool).
   */
  libraries: ReadonlyMap<string, LibraryResolution>;
}

/** One element line of the netlist. */
export interface SpiceComponent {
  reference: string;
  /** SPICE element letter: `Spice_Primitive`, else the reference's first letter. */
  primitive: string;
  /** Element name: the reference, prefixed with the primitive when it starts otherwise (`U1` as `XU1`). */
  name: string;
  /** Node names in the element's pin order. */
  nodes: string[];
  /** Value, source specification or model name. */
  model: string;
  line: string;
}

export interface SpiceExport {
  text: string;
  components: SpiceComponent[];
  /** Directive statements written (sheet text and include cards, in that order of the file: includes first). */
  directives: string[];
  skipped: SpiceSkip[];
}

/** One symbol per reference, its pins gathered over its units. */
interface Part {
  symbol: PlacedSymbol;
  pins: string[];
}

const disabled = (s: PlacedSymbol) => /^[nN0fF]/.test((s.fields.Spice_Netlist_Enabled ?? '').trim());

/** References of the parts to simulate, each with its first unit's symbol and every pin number of its units. */
function parts(sch: Schematic, skipped: SpiceSkip[]): Map<string, Part> {
  const out = new Map<string, Part>();
  const off = new Set<string>();
  for (const sheet of sch.sheets) {
    for (const s of sheet.symbols) {
      if (s.power || s.reference.startsWith('#')) continue;
      if (disabled(s)) {
        if (!off.has(s.reference))
          skipped.push({ item: s.reference, reason: 'Spice_Netlist_Enabled is N: excluded from the simulation' });
        off.add(s.reference);
        continue;
      }
      const part = out.get(s.reference) ?? { symbol: s, pins: [] };
      for (const p of s.pins) if (!part.pins.includes(p.number)) part.pins.push(p.number);
      out.set(s.reference, part);
    }
  }
  for (const [ref, part] of out) {
    if (part.pins.length === 0) {
      skipped.push({ item: ref, reason: 'the symbol has no pins: nothing to connect in SPICE' });
      out.delete(ref);
    } else if (!/^[A-Za-z]/.test(part.symbol.fields.Spice_Primitive?.trim() || ref)) {
      skipped.push({ item: ref, reason: 'no SPICE element letter: the reference does not start with a letter' });
      out.delete(ref);
    }
  }
  return out;
}

/** Every library file the export needs resolved: symbols' `Spice_Lib_File` and the sheets' include cards. */
export function libraryFiles(sch: Schematic, texts: SheetText[]): string[] {
  const files = new Set<string>();
  for (const sheet of sch.sheets)
    for (const s of sheet.symbols) {
      const lib = s.fields.Spice_Lib_File?.trim();
      if (lib && !s.power && !disabled(s)) files.add(lib);
    }
  for (const inc of sheetDirectives(texts).includes) files.add(inc.file);
  return [...files];
}

/** The pin order of a part: `Spice_Node_Sequence` (pin numbers, space or comma separated), else pin numbers ascending. */
export function nodeOrder(pins: string[], sequence: string | undefined): string[] {
  const seq = sequence?.trim();
  if (seq) return seq.split(/[\s,]+/).filter(Boolean);
  return [...pins].sort(comparePins);
}

/** The model text of a part: `Spice_Model`, else its value (converted to a SPICE number for R, C and L). */
export function partModel(primitive: string, fields: Record<string, string>, value: string): string {
  const model = fields.Spice_Model?.trim();
  if (model) return model;
  return /^[RCL]$/i.test(primitive) ? spiceValue(value) : value.trim();
}

/**
 * A KiCad 6 simulation schematic as an ngspice netlist, the way eeschema's SPICE exporter writes it: a `.title`, the
 * `.include` cards of the parts' libraries and of the sheets, one element line per part (`name nodes... model`), the
 * sheets' directives, `.end`. Ground (`GND`, `0`) is node 0, other nets are sanitised names (spice-value.ts), a pin
 * on no net gets a node of its own. Power symbols are not parts; `Spice_Netlist_Enabled` N excludes a part. What
 * the circuit tool would refuse (an element or directive outside its allow-list, a library outside the workspace) is
 * left out and listed in `skipped` with the reason.
 */
export function exportSpice(sch: Schematic, conn: Connectivity, opts: SpiceOptions): SpiceExport {
  const skipped: SpiceSkip[] = [];
  const names = new NodeNames();
  const pinNet = new Map<string, string>();
  for (const net of conn.nets) for (const n of net.nodes) pinNet.set(`${n.reference}\u0000${n.pin}`, net.name);
  const components: SpiceComponent[] = [];
  const libs: string[] = [];
  const refs = [...parts(sch, skipped)].sort(([a], [b]) => comparePins(a, b));
  for (const [reference, { symbol, pins }] of refs) {
    const f = symbol.fields;
    const primitive = (f.Spice_Primitive?.trim() || reference)[0]!.toUpperCase();
    const name = reference[0]!.toUpperCase() === primitive ? reference : `${primitive}${reference}`;
    const nodes = nodeOrder(pins, f.Spice_Node_Sequence).map((pin) => {
      const net = pinNet.get(`${reference}\u0000${pin}`);
      return net === undefined ? names.of(`NC-${reference}-${pin}`) : names.of(net);
    });
    const model = partModel(primitive, f, symbol.value);
    const line = [name, ...nodes, model].filter(Boolean).join(' ');
    try {
      checkStatements(line, `part ${reference}`, false);
    } catch (err) {
      skipped.push({ item: reference, reason: (err as Error).message });
      continue;
    }
    components.push({ reference, primitive, name, nodes, model, line });
    const lib = f.Spice_Lib_File?.trim();
    if (lib && !libs.includes(lib)) libs.push(lib);
  }
  const sheet = sheetDirectives(opts.texts);
  skipped.push(...sheet.skipped);
  const includes: string[] = [];
  const include = (file: string, card: string, rest: string, item: string) => {
    const r = opts.libraries.get(file) ?? { reason: 'not resolved by the caller' };
    if ('reason' in r) skipped.push({ item, reason: `library ${file}: ${r.reason}` });
    else {
      const statement = `${card} "${r.include}"${rest}`;
      if (!includes.includes(statement)) includes.push(statement);
    }
  };
  for (const lib of libs) include(lib, '.include', '', `Spice_Lib_File ${lib}`);
  for (const inc of sheet.includes) include(inc.file, inc.card, inc.rest, inc.item);
  const title = (sheet.title || sch.title || sch.root).replace(/\s+/g, ' ').trim();
  const directives = [...includes, ...sheet.statements];
  const text = [`.title ${title}`, ...includes, ...components.map((c) => c.line), ...sheet.statements, '.end', ''].join(
    '\n',
  );
  return { text, components, directives, skipped };
}
