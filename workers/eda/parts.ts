import type { Schematic } from './schematic.types.ts';

/** The design's symbols that are parts (not power symbols or flags), one entry per reference (units merged). */
export function parts(sch: Schematic) {
  const byRef = new Map<
    string,
    { symbol: Schematic['sheets'][number]['symbols'][number]; sheet: string; units: number[] }
  >();
  for (const sheet of sch.sheets)
    for (const s of sheet.symbols) {
      if (s.power || s.reference.startsWith('#')) continue;
      const known = byRef.get(s.reference);
      if (known) known.units.push(s.unit);
      else byRef.set(s.reference, { symbol: s, sheet: sheet.instance.names, units: [s.unit] });
    }
  return byRef;
}
