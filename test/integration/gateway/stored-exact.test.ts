import { describe, expect, it } from 'vitest';
import { ItemDiffSchema } from '../../../contracts/twin-views.ts';
import { getJson, postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

// Issue 28 point 5: values are rounded for display and stored exactly. The dashboard rounds (test/unit/dashboard/
// display.test.ts); the twin and its diff keep the number a tool recorded, floating-point tail and all.
const t = useTestNode({ realDb: true });

describe('stored values stay exact', () => {
  it('a diff over HTTP answers the recorded 0.1 * 0.54 as 0.054000000000000006, not a rounded 0.054', async () => {
    const p = (await postJson(`${t.url}/v1/projects`, { name: 'exact values' })).body.id as string;
    const record = (limit: number) =>
      okData(
        callTool(t.node.broker, 'twin.record_constraint_set', {
          project_id: p,
          name: 'Mass',
          constraints: [{ metric: 'mass_kg', limit, unit: 'kg' }],
        }),
      );
    const first = await record(0.05);
    await record(0.1 * 0.54);
    const res = await getJson(`${t.url}/v1/twin/items/${first.item_key}/diff?from=1&to=2`);
    expect(res.status).toBe(200);
    const diff = ItemDiffSchema.parse(res.body);
    expect(diff.changes).toContainEqual({ path: 'constraints.0.limit', change: 'changed', from: 0.05, to: 0.1 * 0.54 });
    expect(JSON.stringify(res.body)).toContain('0.054000000000000006');
  });
});
