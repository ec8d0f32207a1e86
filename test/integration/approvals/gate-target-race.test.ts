import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingGate, startApprovalsNode, startRun, type ApprovalsNode } from '../../support/approvals.ts';
import { dbBackends, type TestDatabase } from '../../support/pg.ts';

const N = 100;
const ROUNDS = 6;

/**
 * 100 decisions at once on one gate, each naming it (If-Match with the ETag read, or the body's phase and attempt),
 * on each route: exactly one is taken, every round. Approvals, so that a decision that ignored its target would land
 * on the next gate as soon as it opens (the reported second 200; a 200 now is the one decision, or a repeat of it
 * answered as applied, decision 0148, and shows that one decision only).
 */
for (const backend of dbBackends('appr_target')) {
  describe.runIf(backend.enabled)(`${N} concurrent targeted decisions on one gate, ${backend.name}`, () => {
    let t: ApprovalsNode;
    let db: TestDatabase | undefined;
    beforeAll(async () => {
      db = await backend.database();
      t = await startApprovalsNode({ env: db ? { SERVICE_DATABASE_URL: db.url } : {} });
    });
    afterAll(async () => {
      await t?.stop();
      await db?.drop();
    });

    it(`exactly one decision taken in each of ${ROUNDS} rounds; the run logs it once and the next gate stays open`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const run = await startRun(t, `p-race-${round}`);
        await pendingGate(t, run.id, 'intent');
        const etag = (await fetch(`${t.url}/v1/approvals/gate:${run.id}`)).headers.get('etag')!;
        expect(etag).toBeTruthy();
        const target = { phase: 'intent', attempt: 1 };
        const send = (i: number) => {
          const route = i % 4;
          if (route === 0)
            return t.http(
              'POST',
              `/v1/approvals/gate:${run.id}/decision`,
              { decision: 'approve' },
              { 'x-service-surface': 'dashboard', 'if-match': etag },
            );
          if (route === 1)
            return t.http(
              'POST',
              `/v1/approvals/gate:${run.id}/decision`,
              { decision: 'approve', ...target },
              { 'x-service-surface': 'cli' },
            );
          if (route === 2) return t.http('POST', `/v1/runs/${run.id}/approval`, { decision: 'approve', ...target });
          return t.http(
            'POST',
            `/v1/approvals/gate:${run.id}/inline-decision`,
            { decision: 'approve' },
            { 'if-match': etag },
          );
        };
        const out = await Promise.all(Array.from({ length: N }, (_, i) => send(i)));
        const counts: Record<number, number> = {};
        for (const r of out) counts[r.status] = (counts[r.status] ?? 0) + 1;
        // One decision is taken. A copy that arrived once it was applied is its repeat (same approver, same target):
        // answered 200 as applied, showing that one decision (decision 0148); every other copy is 409.
        expect(Object.keys(counts).sort(), `round ${round}`).toEqual(['200', '409']);
        expect(counts[200] + counts[409]).toBe(N);
        for (const r of out.filter((x) => x.status === 409)) expect(r.json.error.code).toBe('CONFLICT');
        for (const r of out.filter((x) => x.status === 200))
          expect(
            // The unified and inline routes answer the item, the older run route the run.
            ((r.json.detail?.decisions ?? r.json.decisions) as Record<string, unknown>[]).map((d) => [
              d.phase,
              d.decision,
            ]),
            `round ${round}`,
          ).toEqual([['intent', 'approve']]);
        const decisions = (await t.http('GET', `/v1/runs/${run.id}`)).json.decisions;
        expect(
          decisions.map((d: Record<string, unknown>) => d.phase),
          `round ${round}`,
        ).toEqual(['intent']);
        await pendingGate(t, run.id, 'needs');
        expect((await t.http('GET', `/v1/runs/${run.id}`)).json.decisions).toHaveLength(1);
      }
    });
  });
}
