import crypto from 'node:crypto';
import type { DecisionTarget } from '../../contracts/actions/approvals.actions.ts';
import type { ApprovalStatus, DecisionRecord } from '../../contracts/approvals.ts';
import type { AppliedDecision, Refusal, SourceItem } from './source-item.ts';

/**
 * The entity tag of an item (strong, quoted): a digest of its id, status, the gate instance it shows (`gate_id` is
 * run, phase and attempt), its decision and whether a decision waits for delivery. It changes whenever the open gate
 * changes or the item is decided, so a client naming the tag it read names exactly that state.
 */
export function etagOf(s: SourceItem): string {
  return tagOf([
    s.id,
    instanceOf(s),
    s.status,
    s.decision?.decided_at ?? null,
    s.decision?.decision ?? null,
    s.blocked === null ? 0 : 1,
  ]);
}

const tagOf = (parts: unknown[]) =>
  `"${crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27)}"`;

const instanceOf = (s: SourceItem) =>
  s.source.type === 'gate' ? s.source.gate_id : s.source.type === 'ledger' ? s.source.ledger_id : s.source.node_id;

/** The tag an item had while `instance` (a gate instance or the record itself) was pending and open to decide. */
const pendingTagOf = (id: string, instance: string) => tagOf([id, instance, 'pending', null, null, 0]);

/** The decisions applied to an item: a gate's run's every decision, else the item's own once it is decided. */
function appliedOf(s: SourceItem): AppliedDecision[] {
  const own: AppliedDecision[] =
    s.decision && s.status !== 'pending'
      ? [
          {
            instance: instanceOf(s),
            ...(s.kind === 'gate' ? { phase: String(s.detail.phase), attempt: Number(s.detail.attempt) } : {}),
            decision: s.decision.decision,
            reason: s.decision.reason,
            to_phase: String(s.detail.to_phase ?? ''),
            approver: s.decision.approver,
            decided_at: s.decision.decided_at,
          },
        ]
      : [];
  return s.source.type === 'gate' ? [...(s.source.decided ?? []), ...own] : own;
}

/**
 * Whether a decision whose target no longer names the item is the same decision already applied to the state it
 * names (decision 0148): a client whose answer was lost (503, 504) sends it again with the same `If-Match` or gate
 * instance. It is when one applied decision was taken on that state (its pending tag, or its gate's phase and attempt)
 * by the same approver with the same decision, reason and to_phase, before this request arrived (`receivedAt`): one
 * sent at the same time as the decision that was taken is its rival, refused 409 as before (decision 0210). Without a
 * target a decision names whatever stands, so nothing is a repeat (a gate's next instance may be open).
 */
export function appliedRepeat(
  s: SourceItem,
  c: { decision: string; reason: string; to_phase: string; approver: string; target?: DecisionTarget },
  receivedAt: Date,
): boolean {
  const t = c.target;
  if (!t || (!t.etags?.length && t.phase === undefined && t.attempt === undefined)) return false;
  return appliedOf(s).some(
    (d) =>
      Date.parse(d.decided_at) < receivedAt.getTime() &&
      d.decision === c.decision &&
      d.reason === c.reason &&
      d.to_phase === c.to_phase &&
      d.approver === c.approver &&
      (!t.etags?.length || t.etags.includes(pendingTagOf(s.id, d.instance))) &&
      (t.phase === undefined || t.phase === d.phase) &&
      (t.attempt === undefined || t.attempt === d.attempt),
  );
}

const STATUS_OF: Record<string, ApprovalStatus> = {
  approve: 'approved',
  reject: 'rejected',
  retry: 'retried',
  rework: 'reworked',
};

/**
 * The item as the decision applied to it leaves it, when the owner's answer is not at hand and reading it again
 * failed: its decision recorded, nothing more to decide. Used only once the owner took the decision.
 */
export function appliedItem(
  s: SourceItem,
  c: {
    decision: string;
    reason: string;
    to_phase: string;
    decider: Omit<DecisionRecord, 'decision' | 'reason' | 'decided_at'>;
    override_reason?: string;
  },
  now: Date,
): SourceItem {
  return {
    ...s,
    status: STATUS_OF[c.decision] ?? s.status,
    decision: {
      ...c.decider,
      decision: c.decision as DecisionRecord['decision'],
      reason: c.reason,
      decided_at: now.toISOString(),
      ...(c.override_reason?.trim() ? { override_reason: c.override_reason.trim() } : {}),
    },
    allowed_decisions: [],
    rework_targets: [],
    blocked: null,
  };
}

/** The gate instance an item shows, in words ("needs attempt 1"). */
const gateWords = (s: SourceItem) => `${String(s.detail.phase)} attempt ${String(s.detail.attempt)}`;

/** What the item now is, for the message of a refused target. */
function nowIs(s: SourceItem): string {
  if (s.kind !== 'gate') return `the item is ${s.status} now (ETag ${etagOf(s)})`;
  if (s.status === 'pending') return `the open gate is ${gateWords(s)} (ETag ${etagOf(s)})`;
  return `no gate is open now: the last one, ${gateWords(s)}, is ${s.status} (ETag ${etagOf(s)})`;
}

/**
 * Whether a decision's target names the item as it stands (pure). `If-Match` tags compare weakly (`W/"x"` matches
 * `"x"`); phase and attempt name a gate instance and must be the open gate's. The check is on the item as read: for a
 * gate, the runs actor checks the same `gate_id` again under the run's mailbox (`runs.decide`), so a gate that closed
 * meanwhile is refused there; the ledger and twin nodes decide only a pending record, with conditional updates.
 */
export function targetRefusal(s: SourceItem, t: DecisionTarget | undefined): Refusal | null {
  if (!t) return null;
  const refuse = (code: Refusal['code'], message: string): Refusal => ({
    code,
    message: `approval ${s.id}: ${message}`,
  });
  const namesGate = t.phase !== undefined || t.attempt !== undefined;
  if (namesGate && s.kind !== 'gate')
    return refuse(
      'VALIDATION_FAILED',
      `phase and attempt name a gate instance; this item is a ${s.kind} (send If-Match with its ETag instead)`,
    );
  if (t.etags?.length && !t.etags.includes(etagOf(s)))
    return refuse(
      'CONFLICT',
      `the decision names another state of this item (If-Match ${t.etags.join(', ')}); ${nowIs(s)}. Nothing was recorded: read the item again`,
    );
  if (!namesGate) return null;
  const named = `gate ${t.phase ?? String(s.detail.phase)} attempt ${t.attempt ?? 'any'}`;
  const open = s.status === 'pending';
  const matches =
    open &&
    (t.phase === undefined || t.phase === s.detail.phase) &&
    (t.attempt === undefined || t.attempt === s.detail.attempt);
  return matches
    ? null
    : refuse('CONFLICT', `the decision names ${named}, but ${nowIs(s)}. Nothing was recorded: read the item again`);
}
