import { describe, expect, it } from 'vitest';
import { rankCompletions } from '../../../gateway/mcp/completion.ts';
import { Uris, uriTemplate } from '../../../gateway/mcp/resources/uris.ts';
import { MemorySessionStore } from '../../../gateway/mcp/session-store.ts';

const P = '7d8a2f36-1c3e-4f8e-9a51-0b2d9c0f1e77';

describe('resource URI templates', () => {
  it('match a URI of the template and give its variables', () => {
    expect(Uris.workProductFile.match(`service://projects/${P}/work-products/CAD-ARM-7K2Q/file`)).toEqual({
      project_id: P,
      item_key: 'CAD-ARM-7K2Q',
    });
    expect(uriTemplate('test://template/{id}/data').match('test://template/123/data')).toEqual({ id: '123' });
  });

  it('refuse anything that is not exactly one plain segment per variable', () => {
    const hostile = [
      `service://projects/${P}/work-products/../../knowledge/sources`,
      `service://projects/../work-products/CAD-ARM-7K2Q`,
      `service://projects/%2e%2e/work-products/CAD-ARM-7K2Q`,
      `service://projects/${P}/work-products/CAD-ARM-7K2Q/`,
      `service://projects/${P}/work-products/CAD-ARM-7K2Q?x=1`,
      `service://projects/${P}/work-products/CAD ARM`,
      `service://projects/${P}/work-products/a/b`,
      `SERVICE://projects/${P}/work-products/CAD-ARM-7K2Q`,
      `service://projects/${P}/work-products/${'A'.repeat(201)}`,
    ];
    for (const uri of hostile) expect(Uris.workProduct.match(uri), uri).toBeUndefined();
  });

  it('expand only valid segments', () => {
    expect(Uris.simResult.expand({ project_id: P, result_id: 'r-1' })).toBe(`service://projects/${P}/sim-results/r-1`);
    expect(Uris.simResult.expand({ project_id: '..', result_id: 'r-1' })).toBeUndefined();
    expect(Uris.simResult.expand({ project_id: P })).toBeUndefined();
  });
});

describe('rankCompletions', () => {
  const candidates = [
    { value: 'hardware_v1', label: 'Hardware product' },
    { value: 'mech_v1', label: 'Mechanical part' },
  ];

  it('puts values starting with the typed text first, then values or labels containing it', () => {
    expect(rankCompletions(candidates, 'ME')).toEqual({ values: ['mech_v1'], total: 1, hasMore: false });
    expect(rankCompletions(candidates, 'part')).toEqual({ values: ['mech_v1'], total: 1, hasMore: false });
    expect(rankCompletions(candidates, '_v1')).toEqual({
      values: ['hardware_v1', 'mech_v1'],
      total: 2,
      hasMore: false,
    });
    expect(rankCompletions(candidates, '')).toMatchObject({ total: 2 });
  });

  it('answers at most 100 values, with the total and hasMore', () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ value: `CAD-PART-${String(i).padStart(3, '0')}` }));
    const c = rankCompletions(many, 'cad-');
    expect(c.values).toHaveLength(100);
    expect(c).toMatchObject({ total: 150, hasMore: true });
    expect(c.values[0]).toBe('CAD-PART-000');
  });
});

describe('subscriptions in the memory session store', () => {
  const session = {
    protocol_version: '2025-11-25',
    requested_version: '2025-11-25',
    client_info: {},
    can_elicit: false,
    transport: 'http' as const,
    log_level: 'info',
    created_at: new Date(0).toISOString(),
  };

  it('belong to the session and end with it', async () => {
    const store = new MemorySessionStore();
    const s = await store.create(session);
    expect(await store.subscribe(s.id, 'service://knowledge/sources')).toBe(true);
    await store.update({ ...s, log_level: 'debug' });
    expect(await store.subscriptions(s.id)).toEqual(['service://knowledge/sources']);
    await store.unsubscribe(s.id, 'service://knowledge/sources');
    expect(await store.subscriptions(s.id)).toEqual([]);
    await store.subscribe(s.id, 'test://watched-resource');
    await store.delete(s.id);
    expect(await store.subscriptions(s.id)).toEqual([]);
    expect(await store.subscribe(s.id, 'test://watched-resource')).toBe(false);
  });
});
