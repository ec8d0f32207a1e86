import { atom, child, children, parseSexpr, SexprError, type SList } from '../../../../workers/eda/sexpr.ts';

/** One symbol of the schematic as KiCad's netlist gives it: what the board's footprint must carry. */
export interface NetlistComponent {
  ref: string;
  value: string;
  /** The symbol's `Footprint` property, `library:name`; empty when the symbol names none. */
  footprint: string;
  /** KiCad's path of the symbol (sheet path + symbol uuid): the board footprint's path, which parity matches on. */
  path: string;
  sheetname: string;
  sheetfile: string;
  /** The symbol's library (`Device`, `Regulator_Linear`, `Sensor_Humidity`...), which the placer reads roles from. */
  lib: string;
}

export interface NetlistNet {
  name: string;
  /** Each pin on the net, with KiCad's pin type (`power_in`, `passive`...). */
  nodes: { ref: string; pin: string; pintype: string }[];
}

/** The schematic's netlist as `kicad-cli sch export netlist --format kicadsexpr` writes it. */
export interface Netlist {
  components: NetlistComponent[];
  nets: NetlistNet[];
}

/** A netlist KiCad wrote that this reader cannot take (a malformed file, a component with no reference). */
export class NetlistError extends Error {
  override name = 'NetlistError';
}

const text = (list: SList | undefined, index = 1): string => {
  const v = list?.[index];
  return typeof v === 'string' ? v : '';
};

/** `(property (name "Sheetname") (value "x"))`, the netlist's form of a property. */
function netlistProperty(comp: SList, name: string): string {
  for (const p of children(comp, 'property')) if (atom(p, 'name') === name) return atom(p, 'value') ?? '';
  return '';
}

/**
 * Reads KiCad's S-expression netlist (export version "E"): every component with its footprint and symbol path, every
 * net with its nodes. Pins KiCad marks unconnected get their own `unconnected-(...)` nets, kept as KiCad names them.
 */
export function readNetlist(source: string): Netlist {
  let root: SList;
  try {
    root = parseSexpr(source);
  } catch (err) {
    if (err instanceof SexprError) throw new NetlistError(`KiCad's netlist is not readable: ${err.message}`);
    throw err;
  }
  if (root[0] !== 'export') throw new NetlistError(`KiCad's netlist starts (${root[0]} ...), not (export ...)`);
  const components: NetlistComponent[] = [];
  for (const comp of children(child(root, 'components') ?? ['components'], 'comp')) {
    const ref = atom(comp, 'ref');
    if (!ref) throw new NetlistError('a component of the netlist has no reference');
    const sheet = atom(child(comp, 'sheetpath') ?? ['sheetpath'], 'tstamps') ?? '/';
    const stamp = text(child(comp, 'tstamps'));
    components.push({
      ref,
      value: atom(comp, 'value') ?? '',
      footprint: atom(comp, 'footprint') ?? '',
      path: `${sheet.endsWith('/') ? sheet : `${sheet}/`}${stamp}`,
      sheetname: netlistProperty(comp, 'Sheetname'),
      sheetfile: netlistProperty(comp, 'Sheetfile'),
      lib: atom(child(comp, 'libsource') ?? ['libsource'], 'lib') ?? '',
    });
  }
  const nets: NetlistNet[] = [];
  for (const net of children(child(root, 'nets') ?? ['nets'], 'net')) {
    const name = atom(net, 'name') ?? '';
    const nodes = children(net, 'node').map((n) => ({
      ref: atom(n, 'ref') ?? '',
      pin: atom(n, 'pin') ?? '',
      pintype: atom(n, 'pintype') ?? '',
    }));
    if (name) nets.push({ name, nodes: nodes.filter((n) => n.ref && n.pin) });
  }
  return { components, nets };
}

/** The net of each pad, by reference then pad number. */
export function padNets(netlist: Netlist): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const net of netlist.nets)
    for (const n of net.nodes) {
      const pads = out.get(n.ref) ?? new Map<string, string>();
      pads.set(n.pin, net.name);
      out.set(n.ref, pads);
    }
  return out;
}
