import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { startFenceNodes, type FenceNodes } from './fence.nodes.ts';

/** A's sessions idle this long inside a transaction are ended by the server (SERVICE_DB_IDLE_TX_TIMEOUT_MS). */
const IDLE_TX_MS = 1000;
/** Generous: the takeover must come within the idle timeout plus scheduling, never after A wakes. */
const DEADLINE_MS = 20_000;

/**
 * Issue 32 "A paused owner blocks takeover while it is paused": A's commit holds the run row FOR SHARE (its fence)
 * and A stops inside that transaction (the twin's injected pause). The takeover skips a locked row, so without a
 * bound it waits as long as A is paused. With the idle-in-transaction timeout on A's connections the server ends A's
 * session, the row is free, and B takes the run over and approves the gate while A is still paused; A's commit then
 * fails with nothing written.
 */
describe.runIf(inject('servers').pg)('a paused owner holding a transaction open', () => {
  let n: FenceNodes;
  beforeAll(async () => {
    n = await startFenceNodes({ a: { SERVICE_DB_IDLE_TX_TIMEOUT_MS: String(IDLE_TX_MS) } });
  }, 120_000);
  afterAll(async () => {
    await n?.stop();
  });

  it('does not block the takeover beyond the idle timeout, and its own commit then writes nothing', async () => {
    const { a, b } = n;
    const run = await a.start('p-fence-idle');
    await a.gateOpen(run, 'intent');
    const epochA = await n.epoch(run);
    // A's lease is over (B's now) but A has not noticed: it still holds the run under its epoch.
    await n.handOver(run, b);

    const paused = a.pauses.arm('commit_fenced');
    const late = a.decide(run, 'approve', 'approve-on-a').then(
      () => undefined,
      (err: { type?: string; message: string }) => err,
    );
    expect(await paused.reached).toBe(run);
    const pausedAt = Date.now();
    // A failure below must not leave A paused (its node could not stop).
    onTestFinished(() => paused.release());

    // B tries to take the run over and approve, as a person's retried decision would, until it is the owner.
    let takenAt = 0;
    let tries = 0;
    while (!takenAt) {
      tries++;
      const out = await b.decide(run, 'approve', 'approve-on-b').then(
        () => true,
        (err: { type?: string }) => {
          if (err.type !== 'SERVICE_UNAVAILABLE') throw err;
          return false;
        },
      );
      if (out) takenAt = Date.now();
      else if (Date.now() - pausedAt > DEADLINE_MS)
        throw new Error(`no takeover in ${DEADLINE_MS} ms while the owner was paused (${tries} tries)`);
      else await new Promise((r) => setImmediate(r));
    }
    process.stdout.write(
      `\nfence-idle: takeover ${takenAt - pausedAt} ms after the owner paused in its transaction (idle timeout ${IDLE_TX_MS} ms, ${tries} tries)\n`,
    );
    expect(await n.epoch(run)).toBe(epochA + 1);

    paused.release();
    const refusal = await late;
    expect(refusal?.type).toBe('SERVICE_UNAVAILABLE');
    const approved = await n.query<{ revision_status: string; gate: string }>(
      `SELECT revision_status, gate FROM twin_nodes WHERE run_id = $1 AND item_key IS NOT NULL`,
      [run],
    );
    expect(approved).toEqual([{ revision_status: 'approved', gate: `${run}:intent:1` }]);
    const decided = await n.query<{ idem: string }>(
      `SELECT payload->>'idem' AS idem FROM run_events WHERE run_id = $1 AND payload->>'type' = 'GateDecided'`,
      [run],
    );
    expect(decided.map((d) => d.idem)).toEqual(['approve-on-b']);
    const baselines = await n.query<{ n: number }>('SELECT count(*)::int AS n FROM twin_baselines WHERE run_id = $1', [
      run,
    ]);
    expect(baselines).toEqual([{ n: 1 }]);
  }, 120_000);
});
