import { ActorError } from '../../brokers/errors.ts';
import type { Queryable } from '../../brokers/db/index.ts';
import type { Writer } from '../../contracts/twin-nodes.ts';

/**
 * Fences a twin write made by a design-flow phase execution (notes/runtime.md "Per-run ownership"): the runs actor
 * passes the epoch it held the run under when it started the execution, and the write stands only if the run still
 * carries that epoch. The check is the runs actor's SQL function `run_fence_epoch` (migration 0042, README "Run
 * fence"), called inside the write's own transaction: it holds the run row FOR SHARE until the write commits, so a
 * takeover (which bumps the epoch) is ordered entirely before or entirely after the write, and an execution whose node
 * stalled past its lease cannot add a draft after another node took the run over. The twin never reads the runs
 * table. Writes without an epoch (people, agents over MCP, imports) are not a run's execution and are not fenced.
 */
export async function fenceRunWrite(q: Queryable, w: Writer): Promise<void> {
  if (!w.run_id || w.run_epoch === undefined) return;
  const { rows } = await q.query<{ epoch: string | null }>('SELECT run_fence_epoch($1) AS epoch', [w.run_id]);
  const current = rows[0]?.epoch == null ? undefined : Number(rows[0].epoch);
  if (current === w.run_epoch) return;
  const now = current === undefined ? 'does not exist' : `is held under epoch ${current} now`;
  throw new ActorError(
    'CONFLICT',
    `run ${w.run_id} ${now}; this write came from its execution under epoch ${w.run_epoch}, which was taken over: nothing was written`,
    { run_id: w.run_id, run_epoch: w.run_epoch, fenced: true },
  );
}
