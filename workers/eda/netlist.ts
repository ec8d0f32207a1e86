import type { Connectivity } from './connectivity.ts';
import { parts } from './parts.ts';
import type { Schematic } from './schematic.types.ts';

/** S-expression string atom, escaped as KiCad writes them. */
const q = (s: string) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

/** KiCad's netlist (`.net`, export version "E", as eeschema 6 writes it): design, components and nets. */
export function kicadNetlist(
  sch: Schematic,
  conn: Connectivity,
  opts: { source: string; date: string; tool: string },
): string {
  const out: string[] = ['(export (version "E")'];
  out.push(`  (design (source ${q(opts.source)}) (date ${q(opts.date)}) (tool ${q(opts.tool)})`);
  sch.sheets.forEach((s, i) =>
    out.push(
      `    (sheet (number ${q(String(i + 1))}) (name ${q(s.instance.names)}) (tstamps ${q(tstamps(s.instance.path))}))`,
    ),
  );
  out.push('  )', '  (components');
  for (const [ref, { symbol, sheet }] of sortedParts(sch)) {
    const [lib, part] = splitLibId(symbol.libId);
    out.push(`    (comp (ref ${q(ref)})`);
    out.push(`      (value ${q(symbol.value)})`);
    if (symbol.footprint) out.push(`      (footprint ${q(symbol.footprint)})`);
    if (symbol.fields.Datasheet) out.push(`      (datasheet ${q(symbol.fields.Datasheet)})`);
    const extra = Object.entries(symbol.fields).filter(([k]) => !STANDARD_FIELDS.has(k));
    if (extra.length) out.push(`      (fields ${extra.map(([k, v]) => `(field (name ${q(k)}) ${q(v)})`).join(' ')})`);
    out.push(`      (libsource (lib ${q(lib)}) (part ${q(part)}) (description ""))`);
    out.push(`      (sheetpath (names ${q(sheet)}) (tstamps ${q(tstamps(symbol.sheet))}))`);
    out.push(`      (tstamps ${q(symbol.uuid)}))`);
  }
  out.push('  )', '  (nets');
  for (const net of conn.nets) {
    if (!net.nodes.length) continue;
    out.push(`    (net (code ${q(String(net.code))}) (name ${q(net.name)})`);
    for (const n of net.nodes)
      out.push(
        `      (node (ref ${q(n.reference)}) (pin ${q(n.pin)}) (pinfunction ${q(n.pin_name)}) (pintype ${q(n.pin_type)}))`,
      );
    out[out.length - 1] += ')';
  }
  out.push('  )', ')');
  return `${out.join('\n')}\n`;
}

/** The netlist as JSON: components with their fields, nets with their nodes (the shape `eda.export_netlist` returns). */
export function jsonNetlist(sch: Schematic, conn: Connectivity) {
  return {
    components: [...sortedParts(sch)].map(([reference, { symbol, sheet, units }]) => ({
      reference,
      value: symbol.value,
      footprint: symbol.footprint,
      lib_id: symbol.libId,
      sheet,
      units: units.length,
    })),
    nets: conn.nets
      .filter((n) => n.nodes.length)
      .map((n) => ({
        code: n.code,
        name: n.name,
        auto_named: n.auto,
        nodes: n.nodes.map(({ sheet: _s, ...node }) => node),
      })),
  };
}

const STANDARD_FIELDS = new Set(['Reference', 'Value', 'Footprint', 'Datasheet']);

const collator = new Intl.Collator('en', { numeric: true });
function sortedParts(sch: Schematic) {
  return [...parts(sch)].sort(([a], [b]) => collator.compare(a, b));
}

function splitLibId(id: string): [string, string] {
  const i = id.indexOf(':');
  return i < 0 ? ['', id] : [id.slice(0, i), id.slice(i + 1)];
}

const tstamps = (path: string) => (path === '/' ? '/' : `${path}/`);
