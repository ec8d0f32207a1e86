import { batchLoader, batchWriter, type Db } from '../../brokers/db/index.ts';
import type { DecisionRecord } from '../../contracts/approvals.ts';
import { enqueue, type OutboxRow } from './outbox.ts';

/** What `runs.decide` is sent for a gate decision waiting in the outbox. */
export interface GateCommand {
  run_id: string;
  gate_id: string;
  decision: DecisionRecord['decision'];
  reason: string;
  to_phase: string;
  idem: string;
  /** Approve over the gate's overridable findings (decision 0060). */
  override_reason?: string;
}

/**
 * The queue's own rows (table approval_decisions, migration 0051; the outbox, migration 0053). Every insert into
 * approval_decisions is conditional on the primary key (approval, target), so of concurrent decisions on one gate
 * exactly one is kept; a waiting gate decision and its outbox row are written in one transaction.
 */
export function createApprovalStore(db: Db) {
  const insert = (
    q: Pick<Db, 'query'>,
    state: 'saved' | 'delivering',
    approvalId: string,
    targetId: string,
    projectId: string | null,
    decision: DecisionRecord,
    command: object,
    now: Date,
  ) =>
    q
      .query(
        `INSERT INTO approval_decisions (approval_id, target_id, kind, state, project_id, decision, command, created_at, updated_at)
         VALUES ($1, $2, 'gate', $3, $4, $5, $6, $7, $7) ON CONFLICT (approval_id, target_id) DO NOTHING`,
        [approvalId, targetId, state, projectId, JSON.stringify(decision), JSON.stringify(command), now],
      )
      .then((r) => r.rowCount === 1);
  const seenOf = batchLoader(async (pairs) => {
    const split = pairs.map((p) => p.split('\n'));
    const { rows } = await db.query<{ idem: string; approval_id: string }>(
      `SELECT i.idem, i.approval_id FROM approval_idempotency i
       JOIN unnest($1::text[], $2::text[]) AS k(idem, approval_id) ON i.idem = k.idem AND i.approval_id = k.approval_id`,
      [split.map((x) => x[0]), split.map((x) => x[1])],
    );
    return new Map(rows.map((r) => [`${r.idem}\n${r.approval_id}`, true]));
  });
  const rememberOne = batchWriter<{ idem: string; approvalId: string; now: Date }, true>({
    group: () => 'remember',
    key: (r) => r.idem,
    async write(_g, rs) {
      await db.query(
        `INSERT INTO approval_idempotency (idem, approval_id, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[]) ON CONFLICT (idem) DO NOTHING`,
        [rs.map((r) => r.idem), rs.map((r) => r.approvalId), rs.map((r) => r.now)],
      );
      return new Map();
    },
  });
  return {
    /** Saves the reject of a gate whose workflow no longer exists; false when a decision on it is already kept. */
    saveGone: (approvalId: string, gateId: string, projectId: string | null, decision: DecisionRecord, now: Date) =>
      insert(db, 'saved', approvalId, gateId, projectId, decision, {}, now),

    /**
     * Records a gate decision the runs actor could not take now and its outbox row, in one transaction; false (nothing
     * written) when a decision already waits for that gate.
     */
    recordDelivery: (
      approvalId: string,
      projectId: string | null,
      decision: DecisionRecord,
      command: GateCommand,
      now: Date,
    ) =>
      db.tx(async (q) => {
        if (!(await insert(q, 'delivering', approvalId, command.gate_id, projectId, decision, command, now)))
          return false;
        const row: Omit<OutboxRow, 'attempts'> = {
          key: `gate:${command.idem}`,
          effect: 'runs.decide',
          approval_id: approvalId,
          target_id: command.gate_id,
          payload: { ...command, identity: identityOf(decision) },
        };
        await enqueue(q, row, now);
        return true;
      }),

    /** Whether a client's Idempotency-Key already decided this approval (the checks of one event-loop turn: one read). */
    seen: async (idem: string, approvalId: string): Promise<boolean> =>
      (await seenOf(`${idem}\n${approvalId}`)) === true,

    /** Remembers a client's key (the keys of one event-loop turn: one INSERT ... SELECT FROM unnest). */
    async remember(idem: string, approvalId: string, now: Date): Promise<void> {
      await rememberOne({ idem, approvalId, now });
    },
  };
}

const identityOf = ({
  approver,
  approver_verified,
  surface,
  on_behalf_of,
  agent,
  channel,
  principal,
  client_id,
}: DecisionRecord) => ({
  approver,
  approver_verified,
  surface,
  on_behalf_of,
  agent,
  ...(channel ? { channel, principal: principal ?? null } : {}),
  ...(client_id !== undefined ? { client_id } : {}),
});

/** The store of the queue's own rows. */
export type ApprovalStore = ReturnType<typeof createApprovalStore>;
