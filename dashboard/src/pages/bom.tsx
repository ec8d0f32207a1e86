/**
 * `/bom`: the bill of materials (`GET /v1/bom[?project_id=]`): one row per component with quantity, unit and extended
 * price and availability (`unknown` when no record states it, never a default "available"), then the totals
 * (quantity, extended price per currency, lines by status).
 */
import { bomTotals, money, useBom } from '../api/bom.ts';
import { BomPriceTotal } from '../ui/bom-price.tsx';
import { Empty, ErrorNote, Loading, Page, StatusBadge, UnscopedNote } from '../ui/common.tsx';
import { ProjectCell, ProjectPicker, useProjectParam } from '../ui/project-picker.tsx';

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
      {bom.isLoading && <Loading what="the BOM" />}
      <ErrorNote error={bom.error} prefix="Could not load the BOM" />
      <UnscopedNote count={(bom.data as { unscoped_count?: number } | undefined)?.unscoped_count} what="BOM lines" />
      {bom.data && list.length === 0 && (
        <Empty>
          No BOM components{project ? ' in this project' : ''}: they come from the current BOM items and component
          selections in the twin.
        </Empty>
      )}
      {list.length > 0 && (
        <table className="grid" data-testid="bom-table">
          <thead>
            <tr>
              <th scope="col">Designator</th>
              <th scope="col">Part number</th>
              <th scope="col">Description</th>
              <th scope="col">Manufacturer</th>
              <th scope="col">Category</th>
              {!project && <th scope="col">Project</th>}
              <th scope="col" className="num">
                Qty
              </th>
              <th scope="col" className="num">
                Unit price
              </th>
              <th scope="col" className="num">
                Extended
              </th>
              <th scope="col">Status</th>
              <th scope="col">Links</th>
            </tr>
          </thead>
          <tbody>
            {list.map((c) => (
              <tr key={c.id}>
                <td>{c.designator || <span className="muted">—</span>}</td>
                <td>
                  <code>{c.partNumber}</code>
                </td>
                <td>
                  {c.description}
                  {c.footprint && <span className="muted"> · {c.footprint}</span>}
                </td>
                <td>{c.manufacturer}</td>
                <td>{c.category}</td>
                {!project && (
                  <td>
                    <ProjectCell id={c.projectId} />
                  </td>
                )}
                <td className="num">{c.quantity}</td>
                {c.unitPrice === null ? (
                  <>
                    <td className="num muted" data-testid="bom-unpriced">
                      unpriced
                    </td>
                    <td className="num muted">unpriced</td>
                  </>
                ) : (
                  <>
                    <td className="num">{money(c.unitPrice, c.priceCurrency)}</td>
                    <td className="num">{money(c.quantity * c.unitPrice, c.priceCurrency)}</td>
                  </>
                )}
                <td
                  data-testid="bom-availability"
                  title={c.status === 'unknown' ? 'no record states its availability (decision 0070)' : undefined}
                >
                  <StatusBadge status={c.status} />
                </td>
                <td>
                  {!c.datasheetUrl && !c.purchaseUrl && <span className="muted">—</span>}
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
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
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
          </tfoot>
        </table>
      )}
    </Page>
  );
}
