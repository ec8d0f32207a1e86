import crypto from 'node:crypto';
import type { DecisionTarget } from '../../contracts/actions/approvals.actions.ts';
import type { Refusal, SourceItem } from './source-item.ts';

/**
 * The entity tag of an item (strong, quoted): a digest of its id, status, the gate instance it shows (`gate_id` is
 * run, phase and attempt), its decision and whether a decision waits for delivery. It changes whenever the open gate
 * changes or the item is decided, so a client naming the tag it read names exactly that state.
 */
export function etagOf(s: SourceItem): string {
  const instance =
    s.source.type === 'gate' ? s.source.gate_id : s.source.type === 'ledger' ? s.source.ledger_id : s.source.node_id;
  const parts = [
    s.id,
    instance,
    s.status,
    s.decision?.decided_at ?? null,
    s.decision?.decision ?? null,
    s.blocked === null ? 0 : 1,
  ];
  return `"${crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27)}"`;
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
