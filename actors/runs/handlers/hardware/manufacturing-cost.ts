import { z } from 'zod';
import { PARTS, PRICE_SOURCE } from './parts.data.ts';

/**
 * A line of the electronics bom as eda.export_bom writes it (workers/eda/bom.ts): parsed, not cast, because it comes
 * back from the twin as stored JSON. Other keys (footprint, lib_id, fields, ...) are kept as they are.
 */
export const BomLineSchema = z.looseObject({
  designators: z.string().default(''),
  references: z.array(z.string()).default([]),
  quantity: z.number().int().positive(),
  value: z.string(),
  mpn: z.string().optional(),
  manufacturer: z.string().optional(),
});
/** A parsed bom line (unknown keys kept). */
export type BomLineIn = z.infer<typeof BomLineSchema>;

/** A costed line: the bom line plus unit, extended price and where the price comes from (null: no price known). */
export type CostedLine = BomLineIn & {
  unit_price: number | null;
  extended_price: number | null;
  price_currency: 'EUR';
  price_source: string;
};

/** The costed BOM of one board: its lines, the total of the priced ones, and the verdict against the budget. */
export interface CostedBom {
  lines: CostedLine[];
  /** Sum of the priced lines' extended prices, EUR, for one board. */
  total_eur: number;
  /** Designators of lines without a price (never guessed: they stay open until quoted). */
  unpriced: string[];
  budget: { amount: number; currency: string } | null;
  /**
   * true: the priced total is within the budget and every line is priced; false: the priced total alone exceeds it;
   * null: not decidable (no budget, another currency — no exchange rate is assumed —, or unpriced lines).
   */
  within: boolean | null;
  /** Budget left (EUR) when it can be compared, else null. */
  headroom_eur: number | null;
  price_basis: string;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

const BY_MPN = new Map(Object.values(PARTS).map((p) => [p.mpn.toUpperCase(), p]));

/**
 * Costs the bom of one board from the parts table (PRICE_SOURCE: single-unit list prices, the same table the
 * electronics phase's parts cost used, so the two totals agree), matched by MPN only: a line whose MPN the table does
 * not hold is left unpriced and named, never priced by value or footprint.
 */
export function costBom(lines: BomLineIn[], budget: { amount: number; currency: string } | null): CostedBom {
  const costed = lines.map((l): CostedLine => {
    const part = l.mpn ? BY_MPN.get(l.mpn.toUpperCase()) : undefined;
    if (!part)
      return {
        ...l,
        unit_price: null,
        extended_price: null,
        price_currency: 'EUR',
        price_source: l.mpn
          ? `no price: MPN ${l.mpn} is not in the parts table; get a quote`
          : 'no price: the line names no MPN',
      };
    return {
      ...l,
      unit_price: part.price_eur,
      extended_price: r2(part.price_eur * l.quantity),
      price_currency: 'EUR',
      price_source: `parts table: ${part.manufacturer} ${part.mpn}, ${PRICE_SOURCE.basis} (${PRICE_SOURCE.source})`,
    };
  });
  const total = r2(costed.reduce((n, l) => n + (l.extended_price ?? 0), 0));
  const unpriced = costed.filter((l) => l.unit_price === null).map((l) => l.designators || l.value);
  const comparable = budget !== null && budget.currency === 'EUR';
  const within = !comparable ? null : total > budget.amount ? false : unpriced.length ? null : true;
  return {
    lines: costed,
    total_eur: total,
    unpriced,
    budget,
    within,
    headroom_eur: comparable ? r2(budget.amount - total) : null,
    price_basis: `${PRICE_SOURCE.basis}; ${PRICE_SOURCE.source}`,
  };
}

/** One sentence for the summary and the decision: total, budget, and what is left open. */
export function costLine(c: CostedBom): string {
  const vs = !c.budget
    ? ' (no budget stated)'
    : c.budget.currency !== 'EUR'
      ? ` vs budget ${c.budget.amount} ${c.budget.currency} (not compared: other currency)`
      : ` vs budget ${c.budget.amount} EUR: ${c.within === false ? 'OVER' : `headroom ${c.headroom_eur} EUR`}`;
  const open = c.unpriced.length ? `; unpriced: ${c.unpriced.join(', ')}` : '';
  return `BOM cost ${c.total_eur} EUR per board${vs}${open}`;
}
