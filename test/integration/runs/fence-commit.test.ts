import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { startFenceNodes, type FenceNodes } from './fence.nodes.ts';

/**
 * Issue 32 "A paused owner writes over the new owner" (a), at the exact point: node A checked that it owns the run
 * and is about to commit the gate's drafts when it stops (the injected pause, not timing). Meanwhile B takes the run
 * over, approves the same gate and moves the run on to the next phase, which writes a draft. A wakes: its commit must
 * be refused (the twin checks A's epoch in the commit's transaction) and must not take the next phase's draft, so that
 * a person rejecting the next gate leaves no approved head of it.
 */
describe.runIf(inject('servers').pg)('a paused owner cannot commit over the new owner', () => {
  let n: FenceNodes;
  beforeAll(async () => {
    n = await startFenceNodes();
  }, 120_000);
  afterAll(async () => {
    await n?.stop();
  });

  it("refuses the old owner's commit after a takeover; the approved heads are the new owner's", async () => {
    const { a, b } = n;
    const run = await a.start('p-fence-commit');
    await a.gateOpen(run, 'intent');
    const epochA = await n.epoch(run);

    const paused = a.pauses.arm('before_commit');
    const late = a.decide(run, 'approve', 'approve-on-a').then(
      () => undefined,
      (err: { type?: string; message: string }) => err,
    );
    expect(await paused.reached).toBe(run);
    onTestFinished(() => paused.release());

    // A stands still past its lease: B takes the run over, approves the intent gate and runs the needs phase.
    await n.handOver(run, b);
    await b.decide(run, 'approve', 'approve-on-b');
    expect(await n.epoch(run)).toBe(epochA + 1);
    await b.gateOpen(run, 'needs');

    paused.release();
    const refusal = await late;
    expect(refusal?.type).toBe('SERVICE_UNAVAILABLE');
    expect(refusal?.message).toContain(`epoch ${epochA} was taken over during the commit; nothing was committed`);

    // A person rejects the needs gate: its draft is rejected, and no head of it was approved by A's late commit.
    await b.decide(run, 'reject', 'reject-needs', 'not these needs');
    const heads = await n.query<{ item_type: string; head_revision: number }>(
      `SELECT item_type, head_revision FROM twin_items WHERE project_id = $1 ORDER BY item_type`,
      ['p-fence-commit'],
    );
    expect(heads).toEqual([
      { item_type: 'intent', head_revision: 1 },
      { item_type: 'stakeholder_need', head_revision: 0 },
    ]);
    // The rejection's close runs after the decision is stored.
    const nodes = () =>
      n.query<{ node_type: string; revision_status: string; gate: string | null }>(
        `SELECT node_type, revision_status, gate FROM twin_nodes WHERE run_id = $1 AND item_key IS NOT NULL ORDER BY node_type`,
        [run],
      );
    await expect.poll(nodes, { timeout: 30_000, interval: 50 }).toEqual([
      { node_type: 'intent', revision_status: 'approved', gate: `${run}:intent:1` },
      { node_type: 'stakeholder_need', revision_status: 'rejected', gate: null },
    ]);
    // One approval of the intent gate: B's.
    const decided = await n.query<{ idem: string }>(
      `SELECT payload->>'idem' AS idem FROM run_events WHERE run_id = $1 AND payload->>'type' = 'GateDecided' ORDER BY seq`,
      [run],
    );
    expect(decided.map((d) => d.idem)).toEqual(['approve-on-b', 'reject-needs']);
  }, 120_000);
});
