import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { startFenceNodes, type FenceNodes } from './fence.nodes.ts';

/**
 * Issue 32 "A paused owner writes over the new owner" (b), at the exact point: node A decided a retry of the needs gate
 * and, having checked that it owns the run, is about to close the old attempt's drafts when it stops (the injected
 * pause). B takes the run over, closes them itself, runs attempt 2, whose draft waits at the gate. A wakes: its close
 * is refused (epoch checked in the twin's statement) and could not take attempt 2's draft anyway (only attempt 1's are
 * its to close), so approving needs:2 commits attempt 2's draft.
 */
describe.runIf(inject('servers').pg)("a paused owner's close cannot abandon the new owner's attempt", () => {
  let n: FenceNodes;
  beforeAll(async () => {
    n = await startFenceNodes();
  }, 120_000);
  afterAll(async () => {
    await n?.stop();
  });

  it("refuses the old owner's close after a takeover; the new attempt's draft is committed at its gate", async () => {
    const { a, b } = n;
    const run = await a.start('p-fence-close');
    await a.gateOpen(run, 'intent');
    await a.decide(run, 'approve', 'approve-intent');
    await a.gateOpen(run, 'needs', 1);
    const epochA = await n.epoch(run);

    const paused = a.pauses.arm('before_close');
    await a.decide(run, 'retry', 'retry-needs', 'state the needs again');
    expect(await paused.reached).toBe(run);
    onTestFinished(() => paused.release());

    // A stands still past its lease: B claims the run at its next command (here a decision with no open gate, refused),
    // closes attempt 1's drafts itself and runs attempt 2.
    await n.handOver(run, b);
    await expect(b.decide(run, 'approve', 'touch-on-b')).rejects.toMatchObject({ type: 'CONFLICT' });
    expect(await n.epoch(run)).toBe(epochA + 1);
    await b.gateOpen(run, 'needs', 2);

    paused.release();
    await expect
      .poll(() => a.closes.find((c) => c.params.run_epoch === epochA), { timeout: 30_000, interval: 50 })
      .toBeDefined();
    const late = a.closes.find((c) => c.params.run_epoch === epochA)!;
    expect(late.closed).toBeUndefined();
    expect(late.error).toMatchObject({
      type: 'CONFLICT',
      message: expect.stringContaining(
        `is held under epoch ${epochA + 1} now; this close of its drafts came from its owner under epoch ${epochA}, which was taken over: nothing was closed`,
      ),
    });
    const needs = () =>
      n.query<{ attempt: number; revision_status: string; status_reason: string | null }>(
        `SELECT attempt, revision_status, status_reason FROM twin_nodes WHERE run_id = $1 AND node_type = 'stakeholder_need' ORDER BY attempt`,
        [run],
      );
    expect(await needs()).toEqual([
      { attempt: 1, revision_status: 'abandoned', status_reason: expect.stringContaining('resumed on a new owner') },
      { attempt: 2, revision_status: 'draft', status_reason: null },
    ]);

    await b.decide(run, 'approve', 'approve-needs-2');
    expect((await needs())[1].revision_status).toBe('approved');
    const head = await n.query<{ head_revision: number; attempt: number }>(
      `SELECT i.head_revision, n.attempt FROM twin_items i JOIN twin_nodes n ON n.id = i.head_node_id
       WHERE i.project_id = $1 AND i.item_type = 'stakeholder_need'`,
      ['p-fence-close'],
    );
    expect(head).toEqual([{ head_revision: 1, attempt: 2 }]);
  }, 120_000);
});
