import { parts } from './parts.ts';
import type { Schematic } from './schematic.types.ts';

export interface BomLine {
  references: string[];
  /** The references as one string ("C1 C2 C5"), the designator field the twin's BOM list reads. */
  designators: string;
  description: string;
  quantity: number;
  value: string;
  footprint: string;
  lib_id: string;
  manufacturer?: string;
  mpn?: string;
  datasheet?: string;
  /** Other fields the parts of this line agree on (a field with differing values is left out). */
  fields: Record<string, string>;
}

/** Field names that carry a manufacturer or its part number across common KiCad libraries and habits. */
const MANUFACTURER = ['Manufacturer', 'MFR', 'Mfr', 'Manufacturer_Name', 'manf'];
const MPN = ['MPN', 'Manufacturer_Part_Number', 'Manufacturer Part Number', 'MFR_PN', 'Mfr PN', 'PartNumber', 'manf#'];
const SKIP = new Set(['Reference', 'Value', 'Footprint', 'Datasheet', ...MANUFACTURER, ...MPN]);

const pick = (fields: Record<string, string>, names: string[]) => {
  for (const n of names) if (fields[n]?.trim()) return fields[n].trim();
  return undefined;
};

const collator = new Intl.Collator('en', { numeric: true });

/**
 * The bill of materials: parts placed in the BOM (in_bom yes, not power symbols), one line per value, footprint and
 * manufacturer part number, references in natural order (R2 before R10), multi-unit parts counted once.
 */
export function bomLines(sch: Schematic): BomLine[] {
  const lines = new Map<string, BomLine>();
  for (const [ref, { symbol }] of parts(sch)) {
    if (!symbol.inBom) continue;
    const mpn = pick(symbol.fields, MPN);
    const manufacturer = pick(symbol.fields, MANUFACTURER);
    const key = [symbol.value, symbol.footprint, mpn ?? ''].join('\u0000');
    const line = lines.get(key);
    if (line) {
      line.references.push(ref);
      for (const [k, v] of Object.entries(line.fields)) if (symbol.fields[k] !== v) delete line.fields[k];
      continue;
    }
    lines.set(key, {
      references: [ref],
      designators: '',
      description: symbol.fields.Description ?? symbol.value,
      quantity: 0,
      value: symbol.value,
      footprint: symbol.footprint,
      lib_id: symbol.libId,
      ...(manufacturer ? { manufacturer } : {}),
      ...(mpn ? { mpn } : {}),
      ...(symbol.fields.Datasheet && symbol.fields.Datasheet !== '~' ? { datasheet: symbol.fields.Datasheet } : {}),
      fields: Object.fromEntries(
        Object.entries(symbol.fields).filter(([k, v]) => !SKIP.has(k) && !k.startsWith('ki_') && v),
      ),
    });
  }
  const out = [...lines.values()];
  for (const l of out) {
    l.references.sort(collator.compare);
    l.quantity = l.references.length;
    l.designators = l.references.join(' ');
  }
  return out.sort((a, b) => collator.compare(a.references[0]!, b.references[0]!));
}

/** A cell that a spreadsheet would run as a formula (`=`, `@`, or `+`/`-` not starting a number) gets a leading `'`. */
const defuse = (s: string) => (/^[=@\t\r]|^[+-](?![\d.])/.test(s) ? `'${s}` : s);
const csvCell = (raw: string) => {
  const s = defuse(raw);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The BOM as CSV (RFC 4180; formula-like cells defused). */
export function bomCsv(lines: BomLine[]): string {
  const rows = [['References', 'Quantity', 'Value', 'Footprint', 'Manufacturer', 'MPN', 'Datasheet']];
  for (const l of lines)
    rows.push([
      l.references.join(' '),
      String(l.quantity),
      l.value,
      l.footprint,
      l.manufacturer ?? '',
      l.mpn ?? '',
      l.datasheet ?? '',
    ]);
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
