import type { ActionSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import type { Db, Queryable } from '../../brokers/db/index.ts';
import { ActorError } from '../../brokers/errors.ts';
import { TwinScopeActions as S } from '../../contracts/actions/twin-scope.actions.ts';
import { refOf } from './keys.ts';
import type { ItemRow } from './items.store.ts';

/** One declared key as the answer shows it. */
const declared = (r: ItemRow) => ({
  key: r.key,
  name: r.name,
  item_type: r.item_type,
  head_ref: r.head_revision > 0 ? refOf(r.key, r.head_revision) : null,
  origin_run_id: r.origin_run_id,
});

/**
 * Validates and records the items run `runId` may revise (decision 0100): every key must name an item of the run's
 * project, else VALIDATION_FAILED naming the first unknown one and nothing is recorded (the caller's transaction).
 */
export async function declareRevisions(
  q: Queryable,
  runId: string,
  projectId: string | null,
  keys: readonly string[],
  now: Date,
) {
  const wanted = [...new Set(keys)];
  if (!wanted.length) return { items: [] };
  const { rows } = await q.query<ItemRow>(
    `SELECT * FROM twin_items WHERE key = ANY($1) AND COALESCE(project_id, '') = COALESCE($2, '') ORDER BY key`,
    [wanted, projectId],
  );
  const unknown = wanted.filter((k) => !rows.some((r) => r.key === k));
  if (unknown.length) {
    const where = projectId ? `project ${projectId}` : 'items with no project';
    throw new ActorError(
      'VALIDATION_FAILED',
      `revise: ${unknown.join(', ')} ${unknown.length > 1 ? 'are not items' : 'is not an item'} of ${where}; nothing was started`,
      { revise: unknown, issues: unknown.map((k) => ({ path: 'revise', message: `unknown item ${k}` })) },
    );
  }
  await q.query(
    `INSERT INTO twin_run_revisions (run_id, item_key, project_id, declared_at)
     SELECT $1, k, $3, $4 FROM unnest($2::text[]) AS k ON CONFLICT (run_id, item_key) DO NOTHING`,
    [runId, wanted, projectId, now],
  );
  return { items: rows.map(declared) };
}

/** The twin's run-scope actions (`TwinScopeActions`), spread into its `actions`; `db` is read at call time. */
export function runScopeActions(db: () => Db, now: () => Date): Record<string, ActionSchema> {
  return {
    declareRevisions: action(S.declareRevisions, (p) =>
      db().tx((q) => declareRevisions(q, p.run_id, p.project_id, p.keys, now())),
    ),
  };
}
