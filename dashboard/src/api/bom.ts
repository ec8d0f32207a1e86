/** The BOM list (`GET /v1/bom[?project_id=]`) and its totals, shared by /bom and the project page's summary. */
import { useQuery } from '@tanstack/react-query';
import type { BomComponent, BomList } from '../../../contracts/twin.ts';
import { api, qs } from './gateway.ts';

export function useBom(projectId: string) {
  return useQuery({
    queryKey: ['bom', { project_id: projectId }],
    queryFn: ({ signal }) => api<BomList>(`/v1/bom${qs({ project_id: projectId })}`, { signal }),
  });
}

export interface BomTotals {
  lines: number;
  quantity: number;
  /** Extended price (quantity × unit price) per currency: prices in different currencies are never added up. */
  byCurrency: [string, number][];
  byStatus: [string, number][];
  /** Lines without a price (`unitPrice` null): left out of the extended price, shown as "unpriced", never 0. */
  unpriced: number;
}

export function bomTotals(components: BomComponent[]): BomTotals {
  const cur = new Map<string, number>();
  const status = new Map<string, number>();
  let quantity = 0;
  let unpriced = 0;
  for (const c of components) {
    quantity += c.quantity;
    if (c.unitPrice === null) unpriced += 1;
    else cur.set(c.priceCurrency, (cur.get(c.priceCurrency) ?? 0) + c.quantity * c.unitPrice);
    status.set(c.status, (status.get(c.status) ?? 0) + 1);
  }
  return { lines: components.length, quantity, byCurrency: [...cur], byStatus: [...status], unpriced };
}

export const money = (value: number, currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
};
