/**
 * The one table of the dashboard: column definitions in, a `table.grid` out. Every list page and section renders its
 * rows through it, so headers, number alignment and row keys read the same everywhere.
 */
import type { HTMLAttributes, ReactNode } from 'react';

export interface Column<T> {
  /** The header cell's text. */
  header: ReactNode;
  /** The body cell of one row. */
  cell: (row: T) => ReactNode;
  /** A number column: right-aligned header and cells. */
  num?: boolean;
}

/** A dash for a missing value, as every table shows one. */
export const Missing = () => <span className="muted">—</span>;

export function DataTable<T>(props: {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  testId?: string;
  /** Extra attributes of a row (selection state, click target). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;
}) {
  const { columns } = props;
  return (
    <table className="grid" data-testid={props.testId}>
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
        {props.rows.map((r) => (
          <tr key={props.rowKey(r)} {...props.rowProps?.(r)}>
            {columns.map((c, i) => (
              <td key={i} className={c.num ? 'num' : undefined}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
