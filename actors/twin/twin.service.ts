import type { ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { txRetryOnUnique, type Db } from '../../brokers/db/index.ts';
import type { Infra } from '../../brokers/infra.ts';
import { TwinActions as T } from '../../contracts/actions/twin.actions.ts';
import { healthAction } from '../adapters/kit/health.ts';
import { diffBaselines, getBaseline, listBaselines } from './baselines.ts';
import { commitChangeSet, type CommitPause, type FaultInjector } from './changesets.ts';
import { draftCloser } from './draft-close.ts';
import { toItem, type ItemRow } from './items.store.ts';
import { edgesOf, toNode } from './nodes.store.ts';
import { itemHistory, resolveNode } from './reads.ts';
import { recordNode, writeDefinitionWithFiles } from './records.ts';
import { CypherError, runCypher } from './cypher/index.ts';
import { ActorError } from '../../brokers/errors.ts';
import { viewActions } from './views.actions.ts';
import { approvalNodeActions } from './approval-actions.ts';
import { runQueryActions } from './run-reads.ts';
import { runScopeActions } from './run-scope.ts';
import { complianceActions } from './compliance/index.ts';
import { changeEventHooks } from './change-events.ts';

/**
 * The `twin` actor: owns items, revisions, drafts, change sets, baselines, nodes and edges. Every write is one
 * transaction. `faults` is a test seam for proving the change-set commit all-or-nothing; `pause` one that holds a
 * fenced commit open (a hung owner, decision 0142). Both are factory options of tests, never reachable from a request.
 */
export function createTwinService(
  infra: Infra,
  opts: { faults?: FaultInjector; pause?: CommitPause } = {},
): ServiceSchema {
  let db: Db;
  // The drafts closed in one turn of the event loop (a burst of rejected gates ends many runs), one statement.
  const closeDrafts = draftCloser(() => db);
  return {
    name: 'twin',

    // Committed writes are announced (TWIN_CHANGED_EVENT) once they answered: MCP resource subscriptions follow them.
    hooks: changeEventHooks(),

    actions: {
      writeDefinition: action(T.writeDefinition, async (p) => {
        const w = await txRetryOnUnique(db, (q) => writeDefinitionWithFiles(q, p, infra.now()));
        return {
          node: toNode(w.node),
          item_key: w.item_key,
          revision: w.revision,
          item_ref: w.item_ref,
          ...(w.revision_status ? { revision_status: w.revision_status, draft_note: w.draft_note } : {}),
          pinned: w.pinned,
        };
      }),
      recordNode: action(T.recordNode, async (p) => {
        const r = await db.tx((q) => recordNode(q, p, infra.now()));
        return { node: toNode(r.node), pinned: r.pinned };
      }),
      getNode: action(T.getNode, async (p) => {
        const node = await resolveNode(db, p);
        return { ...toNode(node), edges: await edgesOf(db, node.id) };
      }),
      itemHistory: action(T.itemHistory, (p) => itemHistory(db, p)),
      commitChangeSet: action(T.commitChangeSet, (p) =>
        db.tx((q) => commitChangeSet(q, p, infra.now(), opts.faults, opts.pause)),
      ),
      closeDrafts: action(T.closeDrafts, async (p) => ({
        closed: await closeDrafts({
          run_id: p.run_id,
          status: p.status,
          reason: p.reason,
          now: infra.now(),
          ...(p.run_epoch !== undefined ? { run_epoch: p.run_epoch } : {}),
          ...(p.drafts ? { drafts: p.drafts } : {}),
        }),
      })),
      listItems: action(T.listItems, async (p) => {
        const { rows } = await db.query<ItemRow>(
          `SELECT * FROM twin_items WHERE ($1::text IS NULL OR project_id = $1) AND ($2::text IS NULL OR item_type = $2) ORDER BY item_type, name`,
          [p.project_id ?? null, p.item_type ?? null],
        );
        return { items: rows.map((r) => toItem(r)) };
      }),
      baselines: action(T.baselines, (p) => listBaselines(db, p.project_id, p.limit, p.offset)),
      baseline: action(T.baseline, (p) => getBaseline(db, p.id)),
      baselineDiff: action(T.baselineDiff, (p) => diffBaselines(db, p.a, p.b)),
      ...viewActions(() => db, infra),
      ...approvalNodeActions(() => db, infra),
      ...runQueryActions(() => db),
      ...runScopeActions(
        () => db,
        () => infra.now(),
      ),
      ...complianceActions(() => db),
      query: action(T.query, async (p) => {
        try {
          const r = await runCypher(db, p.query, {
            params: p.params,
            projectScope: p.project_scope,
            runId: p.run_id,
            maxRows: p.max_rows,
            allowMutations: infra.config.SERVICE_ALLOW_TWIN_MUTATIONS,
          });
          return r as unknown as Record<string, unknown>;
        } catch (err) {
          if (err instanceof CypherError)
            throw new ActorError('VALIDATION_FAILED', err.hint ? `${err.message}. ${err.hint}` : err.message, {
              cypher_error: err.kind,
            });
          throw err;
        }
      }),
      health: healthAction(T.health, 'twin', async () => {
        await db.query('SELECT 1 FROM twin_items LIMIT 1');
      }),
    },

    async started() {
      db = await infra.db();
    },
  };
}
