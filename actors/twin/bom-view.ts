import type { Queryable } from '../../brokers/db/index.ts';
import { BomStatusSchema, type BomComponent, type BomList } from '../../contracts/twin.ts';

type Props = Record<string, unknown>;
const isRecord = (v: unknown): v is Props => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first of several spellings (`partNumber`, `part_number`, `mpn`) found in the sources, in order. */
function pick(sources: Props[], names: string[]): unknown {
  for (const s of sources) for (const n of names) if (s[n] !== undefined && s[n] !== null && s[n] !== '') return s[n];
  return undefined;
}
const text = (sources: Props[], names: string[], fallback = '') => {
  const v = pick(sources, names);
  return v === undefined ? fallback : String(v);
};
const textOrNull = (sources: Props[], names: string[]) => {
  const v = pick(sources, names);
  return v === undefined ? null : String(v);
};
const num = (sources: Props[], names: string[], fallback: number) => numOrNull(sources, names) ?? fallback;
function numOrNull(sources: Props[], names: string[]): number | null {
  const raw = pick(sources, names);
  const v = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
  return Number.isFinite(v) && v >= 0 ? v : null;
}

/**
 * One BOM component from a record (a component selection's properties, or a line of a bom item), camelCase or
 * snake_case keys, `specs` consulted second. Missing text is empty, quantity 1, currency USD; a line whose records
 * state none of the spec's four availability values is `unknown` (decision 0070, amendment), never `available`. A line whose records state no price is `unpriced` with `unitPrice` null
 * (decision 0070): a price of 0 is only what a record says.
 */
export function toComponent(
  id: string,
  projectId: string | null,
  sources: Props[],
  defaults: { description: string; category: string },
): BomComponent {
  const status = BomStatusSchema.safeParse(pick(sources, ['status', 'availability']));
  const unitPrice = numOrNull(sources, ['unitPrice', 'unit_price', 'price']);
  return {
    id,
    designator: text(sources, ['designator', 'designators', 'reference', 'ref_des']),
    partNumber: text(sources, ['partNumber', 'part_number', 'mpn']),
    description: text(sources, ['description'], defaults.description),
    manufacturer: text(sources, ['manufacturer', 'mfr']),
    quantity: Math.round(num(sources, ['quantity', 'qty'], 1)),
    unitPrice,
    priceStatus: unitPrice === null ? 'unpriced' : 'priced',
    priceCurrency: text(sources, ['priceCurrency', 'price_currency', 'currency'], 'USD'),
    status: status.success ? status.data : 'unknown',
    category: text(sources, ['category'], defaults.category),
    projectId: projectId ?? '',
    footprint: textOrNull(sources, ['footprint', 'package']),
    datasheetUrl: textOrNull(sources, ['datasheetUrl', 'datasheet_url', 'datasheet']),
    purchaseUrl: textOrNull(sources, ['purchaseUrl', 'purchase_url']),
    imageUrl: textOrNull(sources, ['imageUrl', 'image_url']),
    cadModelUrl: textOrNull(sources, ['cadModelUrl', 'cad_model_url']),
  };
}

interface HeadRow {
  key: string;
  item_type: 'bom' | 'component_selection';
  name: string;
  project_id: string | null;
  properties: Props;
}

/** The components of current bom items' lines, then of component selections no bom line of their project lists. */
function components(rows: HeadRow[]): BomComponent[] {
  const out: BomComponent[] = [];
  const listed = new Set<string>();
  for (const r of rows.filter((x) => x.item_type === 'bom')) {
    const lines = [r.properties.components, r.properties.lines, r.properties.items].find(Array.isArray) as
      unknown[] | undefined;
    (lines ?? []).filter(isRecord).forEach((line, i) => {
      const c = toComponent(`${r.key}#${i + 1}`, r.project_id, [line, isRecord(line.specs) ? line.specs : {}], {
        description: '',
        category: 'component',
      });
      if (c.partNumber) listed.add(`${r.project_id ?? ''}\u0000${c.partNumber.toLowerCase()}`);
      out.push(c);
    });
  }
  for (const r of rows.filter((x) => x.item_type === 'component_selection')) {
    const c = toComponent(r.key, r.project_id, [r.properties, isRecord(r.properties.specs) ? r.properties.specs : {}], {
      description: r.name,
      category: 'component',
    });
    if (c.partNumber && listed.has(`${r.project_id ?? ''}\u0000${c.partNumber.toLowerCase()}`)) continue;
    out.push(c);
  }
  return out;
}

/**
 * The BOM list `{components, total}`: the lines of current bom items (`components`, `lines` or `items` lists; id
 * `KEY#n`), then current component selections (id = item key) whose part number no bom line of the project lists;
 * `unpriced_count` counts the listed lines without a price, and with a project filter `unscoped_count` the lines
 * left out because their item has no project (as the approvals list does).
 */
export async function bomList(q: Queryable, projectId: string | undefined): Promise<BomList> {
  const { rows } = await q.query<HeadRow>(
    `SELECT i.key, i.item_type, i.name, i.project_id, n.properties FROM twin_items i JOIN twin_nodes n ON n.id = i.head_node_id
     WHERE i.item_type IN ('bom', 'component_selection') AND ($1::text IS NULL OR i.project_id = $1 OR i.project_id IS NULL)
       AND i.head_revision > 0
     ORDER BY i.item_type, i.name, i.key`,
    [projectId ?? null],
  );
  const list = components(projectId === undefined ? rows : rows.filter((r) => r.project_id === projectId));
  const unscoped = projectId === undefined ? 0 : components(rows.filter((r) => r.project_id === null)).length;
  return {
    components: list,
    total: list.length,
    unpriced_count: list.filter((c) => c.priceStatus === 'unpriced').length,
    unknown_availability_count: list.filter((c) => c.status === 'unknown').length,
    unscoped_count: unscoped,
  };
}
