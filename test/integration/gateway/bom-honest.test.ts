import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { BomListSchema } from '../../../contracts/twin.ts';
import { getJson, postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';

// Issue 28 point 5: a BOM line without a price source is unpriced (unitPrice null), never a price of 0; the list
// counts unpriced lines, and a project-scoped list says how many lines it left out for having no project.
const t = useTestNode({ realDb: true });

const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const bomItem = (project_id: string | null, name: string, lines: Record<string, unknown>[]) =>
  call(t.node.broker, T.writeDefinition, { project_id, item_type: 'bom', name, properties: { lines } });

describe('GET /v1/bom: honest availability (decision 0070, amendment)', () => {
  it('answers a line whose records state no availability, or a word that is none, as unknown, and counts them', async () => {
    const p = await newProject('honest availability');
    await bomItem(p, 'Board BOM', [
      { designator: 'U1', part_number: 'STM32G031K8', status: 'out_of_stock' },
      { designator: 'U2', part_number: 'AP2112K-3.3', availability: 'low_stock' },
      { designator: 'R1', part_number: 'RC0603-10K', quantity: 4 },
      { designator: 'R2', part_number: 'RC0603-1K', status: 'discontinued' },
      { designator: 'R3', part_number: 'RC0603-2K', status: { stock: 12 } },
    ]);
    const res = await getJson(`${t.url}/v1/bom?project_id=${p}`);
    expect(res.status).toBe(200);
    const list = BomListSchema.parse(res.body);
    const byRef = Object.fromEntries(list.components.map((c) => [c.designator, c.status]));
    // Stated values stay; nothing stated, or a word outside the four, is unknown: never a default 'available'.
    expect(byRef).toEqual({ U1: 'out_of_stock', U2: 'low_stock', R1: 'unknown', R2: 'unknown', R3: 'unknown' });
    expect(res.body).toMatchObject({ unknown_availability_count: 3 });
    expect((await getJson(`${t.url}/v1/bom?project_id=${p}&limit=1`)).body).toMatchObject({
      unknown_availability_count: 3,
    });
  });
});

describe('GET /v1/bom: honest prices and the lines left out', () => {
  it('answers a line without a price as unpriced (unitPrice null), counts it, and counts lines with no project', async () => {
    const p = await newProject('honest bom');
    await bomItem(p, 'Board BOM', [
      { designator: 'U1', part_number: 'STM32G031K8', quantity: 1, unit_price: 2.1, currency: 'EUR' },
      { designator: 'R1', part_number: 'RC0603-10K', quantity: 4 },
      { designator: 'C1', part_number: 'GRM188-100N', quantity: 2, unit_price: 0 },
    ]);
    await bomItem(null, 'Loose BOM', [{ designator: 'J1', part_number: 'USB-C-16P' }, { designator: 'J2' }]);

    const res = await getJson(`${t.url}/v1/bom?project_id=${p}`);
    expect(res.status).toBe(200);
    const list = BomListSchema.parse(res.body);
    expect(list.total).toBe(3);
    const byRef = new Map(list.components.map((c) => [c.designator, c]));
    expect(byRef.get('U1')).toMatchObject({ unitPrice: 2.1, priceStatus: 'priced' });
    // No price source: null and unpriced, not 0 and available-looking.
    expect(byRef.get('R1')).toMatchObject({ unitPrice: null, priceStatus: 'unpriced' });
    // A price the record states, even 0, is a price.
    expect(byRef.get('C1')).toMatchObject({ unitPrice: 0, priceStatus: 'priced' });
    expect(res.body).toMatchObject({ unpriced_count: 1, unscoped_count: 2 });

    // Unfiltered: nothing is left out; the loose lines are listed and unpriced.
    const all = await getJson(`${t.url}/v1/bom`);
    expect(all.body).toMatchObject({ unscoped_count: 0 });
    expect((all.body as { unpriced_count: number }).unpriced_count).toBeGreaterThanOrEqual(3);

    // A page keeps the counts of the whole list.
    expect((await getJson(`${t.url}/v1/bom?project_id=${p}&limit=1`)).body).toMatchObject({
      total: 3,
      unpriced_count: 1,
      unscoped_count: 2,
    });
  });
});
