import { isPgError, PgErrorCodes, type Db } from '../../brokers/db/index.ts';
import { FrozenFlowSchema, type FrozenFlow } from '../../contracts/flow-defs.ts';

/** A row of flow_patches. */
export interface PatchRow {
  run_id: string;
  version: number;
  version_id: string;
  base_hash: string;
  content_hash: string;
  operations: unknown[];
  affected: string[];
  reason: string;
  status: 'pending' | 'approved' | 'rejected' | 'applied' | 'stale';
  status_reason: string | null;
  rerun: string[];
  created_at: Date;
}

/** A row of flow_proposals (the columns the actions read). */
export interface ProposalRow {
  version_id: string;
  flow_id: string;
  status: 'pending' | 'approved' | 'rejected';
  created_at: Date;
}

/** Flow patches, flow proposals and frozen versions (tables flow_patches, flow_proposals, flow_versions). */
export function createPatchStore(db: Db) {
  return {
    /** A stored frozen version, or undefined. */
    async version(versionId: string): Promise<FrozenFlow | undefined> {
      const { rows } = await db.query<{
        version_id: string;
        flow_id: string;
        content_hash: string;
        definition: unknown;
        facts: unknown;
      }>('SELECT version_id, flow_id, content_hash, definition, facts FROM flow_versions WHERE version_id = $1', [
        versionId,
      ]);
      return rows[0] ? FrozenFlowSchema.parse(rows[0]) : undefined;
    },

    /** Saves a patch as the run's next version number (1, 2, ...); concurrent proposals take the next free one. */
    async insertPatch(
      p: Omit<PatchRow, 'version' | 'status' | 'status_reason' | 'rerun' | 'created_at'>,
      now: Date,
    ): Promise<PatchRow> {
      for (let attempt = 0; ; attempt++) {
        try {
          const { rows } = await db.query<PatchRow>(
            `INSERT INTO flow_patches (run_id, version, version_id, base_hash, content_hash, operations, affected, reason, created_at)
             SELECT $1, COALESCE(max(version), 0) + 1, $2, $3, $4, $5, $6, $7, $8 FROM flow_patches WHERE run_id = $1 RETURNING *`,
            [
              p.run_id,
              p.version_id,
              p.base_hash,
              p.content_hash,
              JSON.stringify(p.operations),
              p.affected,
              p.reason,
              now,
            ],
          );
          return rows[0];
        } catch (err) {
          if (!isPgError(err, PgErrorCodes.UNIQUE_VIOLATION) || attempt >= 3) throw err;
        }
      }
    },

    async patch(runId: string, version: number): Promise<PatchRow | undefined> {
      const { rows } = await db.query<PatchRow>('SELECT * FROM flow_patches WHERE run_id = $1 AND version = $2', [
        runId,
        version,
      ]);
      return rows[0];
    },

    /** Moves an approved patch to applied (with its re-run set) or stale; false when it was no longer approved. */
    async settlePatch(
      runId: string,
      version: number,
      status: 'applied' | 'stale',
      detail: { rerun?: string[]; reason?: string },
      now: Date,
    ): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE flow_patches SET status = $3, rerun = $4, status_reason = $5, applied_at = CASE WHEN $3 = 'applied' THEN $6::timestamptz END
         WHERE run_id = $1 AND version = $2 AND status = 'approved'`,
        [runId, version, status, detail.rerun ?? [], detail.reason ?? null, now],
      );
      return rowCount > 0;
    },

    /** Records a flow proposal (idempotent per version: the same content is the same proposal). */
    async insertProposal(
      p: { version_id: string; flow_id: string; operations: unknown[]; reason: string },
      now: Date,
    ): Promise<ProposalRow> {
      await db.query(
        `INSERT INTO flow_proposals (version_id, flow_id, operations, reason, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (version_id) DO NOTHING`,
        [p.version_id, p.flow_id, JSON.stringify(p.operations), p.reason, now],
      );
      return (await this.proposal(p.version_id))!;
    },

    async proposal(versionId: string): Promise<ProposalRow | undefined> {
      const { rows } = await db.query<ProposalRow>(
        'SELECT version_id, flow_id, status, created_at FROM flow_proposals WHERE version_id = $1',
        [versionId],
      );
      return rows[0];
    },
  };
}
/** The patch store built on a database. */
export type PatchStore = ReturnType<typeof createPatchStore>;
