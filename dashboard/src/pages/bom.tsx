/**
 * `/bom`: the bill of materials (`GET /v1/bom[?project_id=]`): one row per component with quantity, unit and extended
 * price and availability (`unknown` when no record states it, never a default "available"), then the totals
 * (quantity, extended price per currency, lines by status).
 */
import { bomTotals, money, useBom } from '../api/bom.ts';
import { BomPriceTotal } from '../ui/bom-price.tsx';
import { Page, StatusBadge } from '../ui/common.tsx';
import { DataTable, Missing, type Column } from '../ui/data-table.tsx';
import { ListState } from '../ui/section.tsx';
import { ProjectCell, ProjectPicker, useProjectParam } from '../ui/project-picker.tsx';

type Line = NonNullable<ReturnType<typeof useBom>['data']>['components'][number];

const unpriced = (c: Line) => (c.unitPrice === null ? { className: 'muted' } : {});

const COLUMNS: Column<Line>[] = [
  { header: 'Designator', cell: (c) => c.designator || <Missing /> },
  { header: 'Part number', cell: (c) => <code>{c.partNumber}</code> },
  {
    header: 'Description',
    cell: (c) => (
      <>
        {c.description}
        {c.footprint && <span className="muted"> · {c.footprint}</span>}
      </>
    ),
  },
  { header: 'Manufacturer', cell: (c) => c.manufacturer },
  { header: 'Category', cell: (c) => c.category },
  { header: 'Project', cell: (c) => <ProjectCell id={c.projectId} /> },
  { header: 'Qty', num: true, cell: (c) => c.quantity },
  {
    header: 'Unit price',
    num: true,
    cellProps: (c) => (c.unitPrice === null ? { className: 'muted', 'data-testid': 'bom-unpriced' } : {}),
    cell: (c) => (c.unitPrice === null ? 'unpriced' : money(c.unitPrice, c.priceCurrency)),
  },
  {
    header: 'Extended',
    num: true,
    cellProps: unpriced,
    cell: (c) => (c.unitPrice === null ? 'unpriced' : money(c.quantity * c.unitPrice, c.priceCurrency)),
  },
  {
    header: 'Status',
    cellProps: (c) => ({
      'data-testid': 'bom-availability',
      title: c.status === 'unknown' ? 'no record states its availability (decision 0070)' : undefined,
    }),
    cell: (c) => <StatusBadge status={c.status} />,
  },
  {
    header: 'Links',
    cell: (c) => (
      <>
        {!c.datasheetUrl && !c.purchaseUrl && <Missing />}
        {c.datasheetUrl && (
          <a href={c.datasheetUrl} rel="noreferrer noopener" target="_blank">
            datasheet
          </a>
        )}{' '}
        {c.purchaseUrl && (
          <a href={c.purchaseUrl} rel="noreferrer noopener" target="_blank">
            buy
          </a>
        )}
      </>
    ),
  },
];

export function Component() {
  const [project] = useProjectParam();
  const bom = useBom(project);
  const list = bom.data?.components ?? [];
  const t = bomTotals(list);
  return (
    <Page title="Bill of materials">
      <div className="toolbar">
        <ProjectPicker />
      </div>
      <ListState
        query={bom}
        what="BOM lines"
        prefix="Could not load the BOM"
        count={list.length}
        empty={`No BOM components${project ? ' in this project' : ''}: they come from the current BOM items and component selections in the twin.`}
      >
        <DataTable
          testId="bom-table"
          columns={project ? COLUMNS.filter((c) => c.header !== 'Project') : COLUMNS}
          rows={list}
          rowKey={(c) => c.id}
          foot={
            <tr>
              <th scope="row" colSpan={project ? 5 : 6}>
                Total: {bom.data?.total ?? t.lines} component{t.lines === 1 ? '' : 's'}
              </th>
              <td className="num">{t.quantity}</td>
              <td />
              <td className="num" data-testid="bom-total">
                <BomPriceTotal totals={t} />
              </td>
              <td colSpan={2}>
                {t.byStatus.map(([s, n]) => (
                  <span key={s} style={{ marginRight: 6 }}>
                    {s} {n}
                  </span>
                ))}
              </td>
            </tr>
          }
        />
      </ListState>
    </Page>
  );
}
