import type { Db } from '../../../brokers/db/index.ts';
import type { Selection } from '../../../contracts/harness-config.ts';
import type { RouteRef } from './routing.ts';

/** SQL of the config part's tables (harness_selection, harness_project_routes); the only code that touches them. */
export function createConfigStore(db: Db) {
  return {
    async selection(): Promise<Selection | null> {
      const { rows } = await db.query<{ provider: string; model: string; updated_at: Date }>(
        "SELECT provider, model, updated_at FROM harness_selection WHERE id = 'default'",
      );
      const r = rows[0];
      return r ? { provider: r.provider, model: r.model, updated_at: r.updated_at.toISOString() } : null;
    },

    async setSelection(ref: RouteRef, now: Date): Promise<Selection> {
      await db.query(
        `INSERT INTO harness_selection (id, provider, model, updated_at) VALUES ('default', $1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET provider = EXCLUDED.provider, model = EXCLUDED.model, updated_at = EXCLUDED.updated_at`,
        [ref.provider, ref.model, now],
      );
      return { ...ref, updated_at: now.toISOString() };
    },

    async projectRoutes(projectId: string): Promise<Record<string, RouteRef>> {
      const { rows } = await db.query<{ role: string; provider: string; model: string }>(
        'SELECT role, provider, model FROM harness_project_routes WHERE project_id = $1 ORDER BY role',
        [projectId],
      );
      return Object.fromEntries(rows.map((r) => [r.role, { provider: r.provider, model: r.model }]));
    },

    /** Replaces a project's routes with `routes` (empty clears them), in one transaction. */
    async setProjectRoutes(projectId: string, routes: Record<string, RouteRef>, now: Date): Promise<void> {
      await db.tx(async (q) => {
        await q.query('DELETE FROM harness_project_routes WHERE project_id = $1', [projectId]);
        for (const [role, r] of Object.entries(routes)) {
          await q.query(
            'INSERT INTO harness_project_routes (project_id, role, provider, model, updated_at) VALUES ($1, $2, $3, $4, $5)',
            [projectId, role, r.provider, r.model, now],
          );
        }
      });
    },

    async ping(): Promise<void> {
      await db.query('SELECT 1 FROM harness_selection LIMIT 1');
    },
  };
}
export type ConfigStore = ReturnType<typeof createConfigStore>;
