import { money, type BomTotals } from '../api/bom.ts';

/** A BOM's extended price: one sum per currency, and the lines without a price counted as "unpriced", never 0. */
export function BomPriceTotal({ totals }: { totals: BomTotals }) {
  return (
    <>
      {totals.byCurrency.map(([c, v]) => money(v, c)).join(' + ')}
      {totals.unpriced > 0 && (
        <span className="muted">
          {totals.byCurrency.length ? ' + ' : ''}
          {totals.unpriced} unpriced
        </span>
      )}
    </>
  );
}
