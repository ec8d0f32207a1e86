import { call, type Caller } from '../../brokers/actions.ts';
import type { Logger } from '../../brokers/logger.ts';
import { GatesActions } from '../../contracts/actions/runs.actions.ts';
import type { RequirementVerdict } from '../../contracts/requirement-verdicts.ts';
import type { SourceItem } from './approval.machine.ts';

/**
 * The evaluator's table on a gate item (decision 0080, amendment): a pending gate item carries `verdicts`, every
 * requirement of its run as `gates.verdicts` judges it now (the one evaluator, the run's waivers included), blocking
 * first, beside the findings, which name only the requirements that do not pass. Decided gates carry none: the run has
 * moved on, and its lifecycle view has the live table.
 */

/** The item with its run's verdicts (pure): a pending gate item only; any other item unchanged. */
export function withVerdicts(item: SourceItem, verdicts: RequirementVerdict[]): SourceItem {
  return item.source.type === 'gate' && item.status === 'pending' ? { ...item, verdicts } : item;
}

/** The item marked as lacking its table, with why (never an empty table that would read as "no requirements"). */
const without = (item: SourceItem, why: string): SourceItem => ({
  ...item,
  detail: { ...item.detail, verdicts_unavailable: why },
});

/**
 * Adds the verdicts to each pending gate item, one `gates.verdicts` call per run, side by side. When the gates actor
 * is not on the bus or a call fails, the item has no `verdicts` and `detail.verdicts_unavailable` says why; the item
 * itself is still served (the queue never fails for a table beside it).
 */
export async function attachVerdicts(via: Caller, items: SourceItem[], log: Pick<Logger, 'warn'>) {
  return Promise.all(
    items.map(async (item) => {
      if (item.source.type !== 'gate' || item.status !== 'pending') return item;
      const runId = item.source.run_id;
      try {
        const { verdicts } = await call(via, GatesActions.verdicts, {
          run_id: runId,
          project_id: item.project_id ?? null,
        });
        return withVerdicts(item, verdicts);
      } catch (err) {
        log.warn({ err, run_id: runId }, 'gate item served without its verdict table');
        return without(item, `the requirements could not be judged now: ${(err as Error).message}`);
      }
    }),
  );
}
