import type { Queryable } from '../../brokers/db/index.ts';
import type { DecisionRecord, LedgerKind } from '../../contracts/approvals.ts';

/** A gate decision waiting in approval_decisions for the runs actor (what `runs.decide` is sent once it is back). */
export interface Delivery {
  approval_id: string;
  target_id: string;
  decision: DecisionRecord;
  command: { run_id: string; gate_id: string; decision: DecisionRecord['decision']; reason: string; to_phase: string; idem: string };
  attempts: number;
}

/** Flow approvals whose state the queue writes (flow_patches / flow_proposals `status`, migration 0041). */
const FLOW_KINDS: readonly LedgerKind[] = ['flow_patch', 'flow_version', 'flow_proposal'];

/**
 * The queue's own rows (table approval_decisions, migration 0051) and the flow approval states it writes. Every insert
 * is conditional on the primary key (approval, target), so of concurrent decisions on one gate exactly one is kept.
 */
export function createApprovalStore(db: Queryable) {
  const insert = async (state: 'saved' | 'delivering', approvalId: string, targetId: string, projectId: string | null, decision: DecisionRecord, command: object, now: Date) => {
    const r = await db.query(
      `INSERT INTO approval_decisions (approval_id, target_id, kind, state, project_id, decision, command, created_at, updated_at)
       VALUES ($1, $2, 'gate', $3, $4, $5, $6, $7, $7) ON CONFLICT (approval_id, target_id) DO NOTHING`,
      [approvalId, targetId, state, projectId, JSON.stringify(decision), JSON.stringify(command), now],
    );
    return r.rowCount === 1;
  };
  return {
    /** Saves the reject of a gate whose workflow no longer exists; false when a decision on it is already kept. */
    saveGone: (approvalId: string, gateId: string, projectId: string | null, decision: DecisionRecord, now: Date) => insert('saved', approvalId, gateId, projectId, decision, {}, now),

    /** Records a gate decision the runs actor could not take now; false when one is already waiting for that gate. */
    recordDelivery: (approvalId: string, projectId: string | null, decision: DecisionRecord, command: Delivery['command'], now: Date) =>
      insert('delivering', approvalId, command.gate_id, projectId, decision, command, now),

    async deliveries(limit = 100): Promise<Delivery[]> {
      const { rows } = await db.query<Delivery>(`SELECT approval_id, target_id, decision, command, attempts FROM approval_decisions WHERE state = 'delivering' ORDER BY created_at LIMIT $1`, [limit]);
      return rows;
    },

    /** Removes a delivery once the run took it, or refused it (a refused decision leaves no entry). */
    async settle(d: Pick<Delivery, 'approval_id' | 'target_id'>): Promise<void> {
      await db.query(`DELETE FROM approval_decisions WHERE approval_id = $1 AND target_id = $2 AND state = 'delivering'`, [d.approval_id, d.target_id]);
    },

    async failedAttempt(d: Pick<Delivery, 'approval_id' | 'target_id'>, error: string, now: Date): Promise<void> {
      await db.query(`UPDATE approval_decisions SET attempts = attempts + 1, last_error = $3, updated_at = $4 WHERE approval_id = $1 AND target_id = $2`, [d.approval_id, d.target_id, error, now]);
    },

    /** Whether a client's Idempotency-Key already decided this approval. */
    async seen(idem: string, approvalId: string): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM approval_idempotency WHERE idem = $1 AND approval_id = $2', [idem, approvalId]);
      return rows.length > 0;
    },

    async remember(idem: string, approvalId: string, now: Date): Promise<void> {
      await db.query('INSERT INTO approval_idempotency (idem, approval_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (idem) DO NOTHING', [idem, approvalId, now]);
    },

    /**
     * Writes a decided flow approval into its flow table (the runs actor applies or starts only approved ones); only
     * while it is still pending, so a repeat is a no-op. Returns whether a row moved.
     */
    async settleFlow(kind: LedgerKind, detail: Record<string, unknown>, approved: boolean, decidedBy: string, now: Date): Promise<boolean> {
      if (!FLOW_KINDS.includes(kind)) return false;
      const status = approved ? 'approved' : 'rejected';
      const r =
        kind === 'flow_patch'
          ? await db.query(`UPDATE flow_patches SET status = $3, decided_by = $4, decided_at = $5 WHERE run_id = $1 AND version = $2 AND status = 'pending'`, [String(detail.run_id), Number(detail.version), status, decidedBy, now])
          : await db.query(`UPDATE flow_proposals SET status = $2, decided_by = $3, decided_at = $4 WHERE version_id = $1 AND status = 'pending'`, [String(detail.version_id), status, decidedBy, now]);
      return r.rowCount > 0;
    },

    /**
     * Flow approvals decided in the ledger (since `since`, else ever) whose flow row is still pending (a write that
     * failed part-way): to settle again.
     */
    async unsettledFlows(since?: Date): Promise<{ kind: LedgerKind; detail: Record<string, unknown>; status: string; decision: DecisionRecord }[]> {
      const { rows } = await db.query<{ kind: LedgerKind; detail: Record<string, unknown>; status: string; decision: DecisionRecord }>(
        `SELECT t.kind, t.detail, t.status, t.decision FROM tool_approvals t
         WHERE t.status IN ('approved', 'rejected') AND t.kind IN ('flow_patch', 'flow_version', 'flow_proposal') AND t.updated_at >= $1 AND (
           (t.kind = 'flow_patch' AND EXISTS (SELECT 1 FROM flow_patches p WHERE p.run_id = t.detail->>'run_id' AND p.version::text = t.detail->>'version' AND p.status = 'pending'))
           OR (t.kind IN ('flow_version', 'flow_proposal') AND EXISTS (SELECT 1 FROM flow_proposals f WHERE f.version_id = t.detail->>'version_id' AND f.status = 'pending')))
         LIMIT 100`,
        [since ?? new Date(0)],
      );
      return rows;
    },
  };
}

/** The store of the queue's own rows. */
export type ApprovalStore = ReturnType<typeof createApprovalStore>;
