import crypto from 'node:crypto';
import { isUuid, type Db } from '../../brokers/db/index.ts';
import type { CadSession } from '../../contracts/actions/cadsessions.actions.ts';
import type { SessionFeature, SessionOpName } from '../../contracts/cad-session.ts';

interface SessionRow {
  id: string;
  project_id: string | null;
  name: string;
  status: 'open' | 'closed';
  feature_count: number;
  owner_node: string | null;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

/** A session row as its record. */
export const toCadSession = (r: SessionRow): CadSession => ({
  session_id: r.id,
  project_id: r.project_id,
  name: r.name,
  status: r.status,
  feature_count: r.feature_count,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  closed_at: r.closed_at ? r.closed_at.toISOString() : null,
});

/** SQL of the cad_session_* tables; the only code that writes them. */
export function createCadSessionStore(db: Db) {
  return {
    async open(id: string, name: string, projectId: string | null, now: Date): Promise<CadSession> {
      const { rows } = await db.query<SessionRow>(
        `INSERT INTO cad_sessions (id, project_id, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (id) DO UPDATE SET updated_at = cad_sessions.updated_at RETURNING *`,
        [id, projectId, name, now],
      );
      return toCadSession(rows[0]);
    },

    /** The session, or undefined for an unknown (or malformed) id. */
    async get(id: string): Promise<(CadSession & { owner_node: string | null }) | undefined> {
      if (!isUuid(id)) return undefined;
      const { rows } = await db.query<SessionRow>('SELECT * FROM cad_sessions WHERE id = $1', [id]);
      return rows[0] && { ...toCadSession(rows[0]), owner_node: rows[0].owner_node };
    },

    async close(id: string, now: Date): Promise<CadSession | undefined> {
      const { rows } = await db.query<SessionRow>(
        `UPDATE cad_sessions SET status = 'closed', closed_at = COALESCE(closed_at, $2), updated_at = $2 WHERE id = $1 RETURNING *`,
        [id, now],
      );
      return rows[0] && toCadSession(rows[0]);
    },

    /** The feature history, in order. */
    async history(id: string): Promise<SessionFeature[]> {
      const { rows } = await db.query<{ seq: number; op: SessionOpName; args: Record<string, unknown> }>(
        'SELECT seq, op, args FROM cad_session_features WHERE session_id = $1 ORDER BY seq',
        [id],
      );
      return rows;
    },

    async featureList(id: string): Promise<{ seq: number; op: string; created_at: string }[]> {
      const { rows } = await db.query<{ seq: number; op: string; created_at: Date }>(
        'SELECT seq, op, created_at FROM cad_session_features WHERE session_id = $1 ORDER BY seq',
        [id],
      );
      return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
    },

    /**
     * Appends feature `expectedSeq + 1` in one transaction, only while the session is open and still has exactly
     * `expectedSeq` features: a writer that lost a race (another node appended first) gets false and writes nothing.
     */
    append(
      id: string,
      expectedSeq: number,
      op: SessionOpName,
      args: Record<string, unknown>,
      node: string,
      now: Date,
    ): Promise<boolean> {
      return db.tx(async (q) => {
        const { rowCount } = await q.query(
          `UPDATE cad_sessions SET feature_count = feature_count + 1, owner_node = $3, updated_at = $4 WHERE id = $1 AND feature_count = $2 AND status = 'open'`,
          [id, expectedSeq, node, now],
        );
        if (rowCount !== 1) return false;
        await q.query(
          'INSERT INTO cad_session_features (session_id, seq, op, args, created_at) VALUES ($1, $2, $3, $4::jsonb, $5)',
          [id, expectedSeq + 1, op, JSON.stringify(args), now],
        );
        return true;
      });
    },

    /** Stores an imported file by content hash; returns the hash. */
    async putFile(content: Buffer, now: Date): Promise<string> {
      const sha = crypto.createHash('sha256').update(content).digest('hex');
      await db.query(
        'INSERT INTO cad_session_files (sha256, content, size_bytes, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING',
        [sha, content, content.length, now],
      );
      return sha;
    },

    async getFile(sha: string): Promise<Buffer | undefined> {
      const { rows } = await db.query<{ content: Buffer }>('SELECT content FROM cad_session_files WHERE sha256 = $1', [
        sha,
      ]);
      return rows[0] && Buffer.from(rows[0].content);
    },

    /** Puts an export into the stash (the latest per obj_id wins). */
    async stash(id: string, objId: string, step: Buffer, featureSeq: number, now: Date): Promise<void> {
      const sha = crypto.createHash('sha256').update(step).digest('hex');
      await db.query(
        `INSERT INTO cad_session_exports (session_id, obj_id, step, sha256, feature_seq, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (session_id, obj_id) DO UPDATE SET step = EXCLUDED.step, sha256 = EXCLUDED.sha256, feature_seq = EXCLUDED.feature_seq, created_at = EXCLUDED.created_at`,
        [id, objId, step, sha, featureSeq, now],
      );
    },

    async stashed(id: string, objId: string): Promise<Buffer | undefined> {
      if (!isUuid(id)) return undefined;
      const { rows } = await db.query<{ step: Buffer }>(
        'SELECT step FROM cad_session_exports WHERE session_id = $1 AND obj_id = $2',
        [id, objId],
      );
      return rows[0] && Buffer.from(rows[0].step);
    },
  };
}

/** The store's interface. */
export type CadSessionStore = ReturnType<typeof createCadSessionStore>;
