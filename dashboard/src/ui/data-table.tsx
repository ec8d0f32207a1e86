/**
 * The one table of the dashboard: column definitions in, a `table.grid` out. Every list page and section renders its
 * rows through it, so headers, number alignment and row keys read the same everywhere.
 */
import type { HTMLAttributes, ReactNode, TdHTMLAttributes } from 'react';

export interface Column<T> {
  /** The header cell's text. */
  header: ReactNode;
  /** The body cell of one row. */
  cell: (row: T) => ReactNode;
  /** A number column: right-aligned header and cells. */
  num?: boolean;
  /** Attributes of one body cell (a test id, a hover title, a muted class). */
  cellProps?: (row: T) => TdHTMLAttributes<HTMLTableCellElement> & Record<`data-${string}`, string | undefined>;
}

/** A dash for a missing value, as every table shows one. */
export const Missing = () => <span className="muted">—</span>;

export function DataTable<T>(props: {
  columns: Column<T>[];
  rows: readonly T[];
  /** A row's React key (its id; the index for a list that only grows at its end). */
  rowKey: (row: T, index: number) => string;
  testId?: string;
  /** Classes besides `grid`. */
  className?: string;
  /** Extra attributes of a row (selection state, click target). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;
  /** A caption above the header (what the rows are). */
  caption?: ReactNode;
  /** A footer row or rows (totals). */
  foot?: ReactNode;
}) {
  const { columns } = props;
  return (
    <table className={props.className ? `grid ${props.className}` : 'grid'} data-testid={props.testId}>
      {props.caption && (
        <caption className="muted" style={{ textAlign: 'left' }}>
          {props.caption}
        </caption>
      )}
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} scope="col" className={c.num ? 'num' : undefined}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r, n) => (
          <tr key={props.rowKey(r, n)} {...props.rowProps?.(r)}>
            {columns.map((c, i) => {
              const extra = c.cellProps?.(r);
              const className = [c.num ? 'num' : '', extra?.className ?? ''].filter(Boolean).join(' ') || undefined;
              return (
                <td
                  key={i}
                  data-label={typeof c.header === 'string' ? c.header : undefined}
                  {...extra}
                  className={className}
                >
                  <span className="cell">{c.cell(r)}</span>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
      {props.foot && <tfoot>{props.foot}</tfoot>}
    </table>
  );
}

/** A requirement's limit and measured value, the same columns wherever a requirement is listed (gate and lifecycle). */
export interface Judged {
  operator: string;
  limit: number | string | null;
  unit?: string | null;
  value?: number | string | null;
}

export const limitColumn = <T extends Judged>(): Column<T> => ({
  header: 'Limit',
  cell: (r) => `${r.operator} ${r.limit ?? ''} ${r.unit ?? ''}`.trim(),
});

export const valueColumn = <T extends Judged>(): Column<T> => ({
  header: 'Value',
  num: true,
  cell: (r) => r.value ?? '—',
});
