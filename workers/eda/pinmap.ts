import type { Connectivity } from './connectivity.ts';
import type { PinType, Schematic } from './schematic.types.ts';

export interface PinMapEntry {
  reference: string;
  value: string;
  footprint: string;
  lib_id: string;
  sheet: string;
  pins: { number: string; name: string; type: PinType; net: string | null; unit: number }[];
}

const collator = new Intl.Collator('en', { numeric: true });

/**
 * Per part (units merged) and its footprint: each pin's number (the footprint pad it lands on), name, electrical type
 * and net; a pin on no net (nothing attached) has net null. Power symbols and flags are not parts.
 */
export function pinMapping(sch: Schematic, conn: Connectivity, only?: Set<string>): PinMapEntry[] {
  const netOf = new Map<string, string>();
  for (const n of conn.nets)
    if (!n.name.startsWith('unconnected-('))
      for (const node of n.nodes) netOf.set(`${node.reference}\u0000${node.pin}`, n.name);
  const byRef = new Map<string, PinMapEntry>();
  const seen = new Map<PinMapEntry, Set<string>>();
  for (const sheet of sch.sheets)
    for (const s of sheet.symbols) {
      if (s.power || s.reference.startsWith('#') || (only && !only.has(s.reference))) continue;
      let e = byRef.get(s.reference);
      if (!e) {
        e = {
          reference: s.reference,
          value: s.value,
          footprint: s.footprint,
          lib_id: s.libId,
          sheet: sheet.instance.names,
          pins: [],
        };
        byRef.set(s.reference, e);
        seen.set(e, new Set());
      }
      const numbers = seen.get(e)!;
      for (const p of s.pins) {
        if (numbers.has(p.number)) continue;
        numbers.add(p.number);
        e.pins.push({
          number: p.number,
          name: p.name,
          type: p.type,
          net: netOf.get(`${s.reference}\u0000${p.number}`) ?? null,
          unit: s.unit,
        });
      }
    }
  const out = [...byRef.values()].sort((a, b) => collator.compare(a.reference, b.reference));
  for (const e of out) e.pins.sort((a, b) => collator.compare(a.number, b.number));
  return out;
}
