import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { callTool, okData, useNode } from '../../support/tools.ts';
import { startTestNode } from '../../support/node.ts';

// An approved design change is applied by deterministic code through the twin: the target's next revision with the
// change merged and its rationale as the change reason; the change becomes `applied`. A change naming a revision that
// is no longer the head is approved but not applied, saying why; nothing else is written.
const t = useNode((env) => startTestNode({ roles: 'gateway,tools,twin,adapter:twin,approvals,holds,projects', env }));

async function decide(id: string, decision: 'approve' | 'reject') {
  const res = await fetch(`${t.url}/v1/approvals/${id}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ decision, reason: 'reviewed' }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}
const propose = (target: string, changes: Record<string, unknown>, title: string) =>
  okData<{ change_id: string; approval_id: string }>(
    callTool(
      t.node.broker,
      'twin.propose_change',
      { project_id: null, target, title, rationale: `because ${title}`, changes },
      { kind: 'service', transport: 'internal' },
    ),
  );

describe('applying an approved design change', () => {
  it('writes the next revision with the change merged, and marks the change applied', async () => {
    const w = await call(t.node.broker, T.writeDefinition, {
      project_id: null,
      item_type: 'component_selection',
      name: 'Drive motor',
      properties: { torque_nm: 1.2, supplier: 'Acme' },
    });
    const change = await propose(w.item_ref, { torque_nm: 2.5 }, 'more torque');
    const decided = await decide(change.approval_id, 'approve');
    expect(decided.status, JSON.stringify(decided.json)).toBe(200);

    const node = await call(t.node.broker, T.getNode, { node_id: change.change_id });
    expect(node.properties).toMatchObject({ status: 'applied', applied_ref: `${w.item_key}@2` });
    const head = await call(t.node.broker, T.getNode, { item_key: w.item_key });
    expect(head).toMatchObject({
      revision: 2,
      properties: { torque_nm: 2.5, supplier: 'Acme' },
      change_reason: 'because more torque',
    });

    // A second change still naming @1: approved, not applied (the head moved), nothing written.
    const stale = await propose(w.item_ref, { supplier: 'Other' }, 'other supplier');
    expect((await decide(stale.approval_id, 'approve')).status).toBe(200);
    const staleNode = await call(t.node.broker, T.getNode, { node_id: stale.change_id });
    expect(staleNode.properties).toMatchObject({ status: 'approved', apply_error: expect.stringContaining('@2') });
    expect((await call(t.node.broker, T.getNode, { item_key: w.item_key })).revision).toBe(2);

    // A rejected change writes nothing.
    const rejected = await propose(w.item_key, { supplier: 'Nope' }, 'nope');
    expect((await decide(rejected.approval_id, 'reject')).status).toBe(200);
    expect((await call(t.node.broker, T.getNode, { item_key: w.item_key })).properties.supplier).toBe('Acme');
  });
});
