import type { Db } from '../../brokers/db/index.ts';
import type { Project, ProjectCreate, ProjectUpdate } from '../../contracts/index.ts';

interface ProjectRow {
  id: string;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  name: r.name,
  description: r.description,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** SQL of the projects table; the only code that touches it. */
export function createProjectStore(db: Db) {
  return {
    async list(limit: number, offset: number): Promise<{ projects: Project[]; total: number }> {
      const [page, count] = await Promise.all([
        db.query<ProjectRow>('SELECT * FROM projects ORDER BY created_at DESC, id LIMIT $1 OFFSET $2', [limit, offset]),
        db.query<{ n: string }>('SELECT count(*) AS n FROM projects'),
      ]);
      return { projects: page.rows.map(toProject), total: Number(count.rows[0].n) };
    },

    async get(id: string): Promise<Project | undefined> {
      const { rows } = await db.query<ProjectRow>('SELECT * FROM projects WHERE id = $1', [id]);
      return rows[0] && toProject(rows[0]);
    },

    async create(id: string, input: ProjectCreate, now: Date): Promise<Project> {
      const { rows } = await db.query<ProjectRow>(
        'INSERT INTO projects (id, name, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING *',
        [id, input.name, input.description, now],
      );
      return toProject(rows[0]);
    },

    async update(id: string, patch: ProjectUpdate, now: Date): Promise<Project | undefined> {
      const { rows } = await db.query<ProjectRow>(
        `UPDATE projects SET name = COALESCE($2, name), description = COALESCE($3, description), updated_at = $4
         WHERE id = $1 RETURNING *`,
        [id, patch.name ?? null, patch.description ?? null, now],
      );
      return rows[0] && toProject(rows[0]);
    },

    async remove(id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM projects WHERE id = $1', [id]);
      return rowCount > 0;
    },

    async ping(): Promise<void> {
      await db.query('SELECT 1');
    },
  };
}
export type ProjectStore = ReturnType<typeof createProjectStore>;
