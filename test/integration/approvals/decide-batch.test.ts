import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb, migrate, type Db } from '../../../brokers/db/index.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { createApprovalStore } from '../../../actors/approvals/approval.store.ts';
import { createHoldStore } from '../../../actors/holds/hold.store.ts';
import { decideNode, nodeDecider } from '../../../actors/twin/approval-nodes.ts';

/** The database with every statement it is sent counted (the cost of a burst is statements per decision, not time). */
function counting(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const wrapped = Object.create(db) as Db;
  wrapped.query = (sql, params) => {
    statements.push(sql);
    return db.query(sql, params);
  };
  return { db: wrapped, statements };
}
const updates = (s: string[], table: string) => s.filter((q) => q.trimStart().startsWith(`UPDATE ${table}`));
const decider = (who: string) => ({
  approver: who,
  approver_verified: true,
  surface: 'dashboard' as const,
  on_behalf_of: null,
  agent: null,
});

describe('decisions that arrive together are written together', () => {
  let base: Db;
  beforeAll(async () => {
    base = await createPgliteDb('memory://');
    await migrate(base);
  });
  afterAll(() => base.close());

  it('ledger: N concurrent decisions are one guarded UPDATE; each gets its own record, a decided one only its refusal', async () => {
    const ids = Array.from({ length: 20 }, () => crypto.randomUUID());
    for (const id of ids)
      await base.query(
        `INSERT INTO tool_approvals (id, kind, status, title, route) VALUES ($1, 'human_authority', 'awaiting_approval', 't', 'dashboard')`,
        [id],
      );
    await base.query(`UPDATE tool_approvals SET status = 'rejected' WHERE id = $1`, [ids[7]]);
    const { db, statements } = counting(base);
    const store = createHoldStore(db);
    const now = new Date('2026-01-01T00:00:00Z');
    const moved = await Promise.all([
      ...ids.map((id, i) =>
        store.transition(id, { status: 'approved', decision: { by: `p${i}` } } as never, now, { notInClient: true }),
      ),
      store.transition(ids[0], { status: 'rejected', decision: { by: 'second' } } as never, now, { notInClient: true }),
    ]);
    expect(updates(statements, 'tool_approvals')).toHaveLength(1);
    ids.forEach((id, i) => {
      if (i === 7) expect(moved[i]).toBeUndefined();
      else expect(moved[i]).toMatchObject({ id, status: 'approved', decision: { by: `p${i}` } });
    });
    expect(moved[ids.length]).toBeUndefined(); // the second decision on ids[0] lost to the first
    const { rows } = await base.query<{ status: string }>(`SELECT status FROM tool_approvals WHERE id = $1`, [ids[7]]);
    expect(rows[0].status).toBe('rejected');
  });

  it('twin: concurrent sketch approvals are one guarded UPDATE; a decided sketch is refused 409 alone', async () => {
    const ids = Array.from({ length: 10 }, () => crypto.randomUUID());
    for (const id of ids)
      await base.query(`INSERT INTO twin_nodes (id, project_id, node_type, name) VALUES ($1, 'p', 'sketch', 's')`, [
        id,
      ]);
    await base.query(`UPDATE twin_nodes SET properties = '{"approved": true}' WHERE id = $1`, [ids[2]]);
    const { db, statements } = counting(base);
    const write = nodeDecider(() => db);
    const now = new Date('2026-01-01T00:00:00Z');
    const out = await Promise.allSettled(
      ids.map((id, i) =>
        decideNode(
          db,
          { node_id: id, kind: 'sketch', decision: 'approve', reason: '', decider: decider(`p${i}`) },
          now,
          write,
        ),
      ),
    );
    expect(updates(statements, 'twin_nodes')).toHaveLength(1);
    out.forEach((o, i) => {
      if (i === 2) expect(o).toMatchObject({ status: 'rejected', reason: { type: 'CONFLICT' } });
      else
        expect(o).toMatchObject({ status: 'fulfilled', value: { id: ids[i], properties: { approved_by: `p${i}` } } });
    });
    expect((out[2] as PromiseRejectedResult).reason).toBeInstanceOf(ActorError);
  });

  it("the queue's Idempotency-Keys of one turn: one INSERT to remember them, one read to check them", async () => {
    const { db, statements } = counting(base);
    const store = createApprovalStore(db);
    const now = new Date('2026-01-01T00:00:00Z');
    await Promise.all(Array.from({ length: 5 }, (_v, i) => store.remember(`k${i}`, `tool:a${i}`, now)));
    expect(statements.filter((q) => q.includes('INSERT INTO approval_idempotency'))).toHaveLength(1);
    const seen = await Promise.all([
      ...Array.from({ length: 5 }, (_v, i) => store.seen(`k${i}`, `tool:a${i}`)),
      store.seen('k0', 'tool:other'),
      store.seen('unknown', 'tool:a0'),
    ]);
    expect(seen).toEqual([true, true, true, true, true, false, false]);
    expect(statements.filter((q) => q.includes('FROM approval_idempotency'))).toHaveLength(1);
  });
});
