/**
 * The decision form of one approval item (queue and run page): one button per decision the item offers
 * (`allowed_decisions`), a reason box required exactly for `reason_required_for`, the rework target from
 * `rework_targets`. Untouched, the form follows the live item. Once the person engages with it (focus, pointer,
 * typing) it holds the item as it was then: when the live item moves on meanwhile (another gate opened, someone else
 * decided), it says so and a decision still names what was seen (If-Match of its ETag), so the gateway refuses it
 * (409) instead of applying it to the next gate.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useDecide, type ApprovalDecision, type ApprovalItem } from '../api/approvals.ts';
import { ErrorNote } from './common.tsx';
import { DecidingAs } from '../auth/deciding-as.tsx';

const LABEL: Record<ApprovalDecision, string> = {
  approve: 'Approve',
  reject: 'Reject',
  retry: 'Retry',
  rework: 'Rework',
};
const ORDER: ApprovalDecision[] = ['approve', 'reject', 'retry', 'rework'];

/** The gate instance an item shows (" (phase needs, attempt 1)"); nothing for other kinds. */
const gateWords = (it: ApprovalItem) =>
  it.kind === 'gate' ? ` (phase ${String(it.detail?.phase)}, attempt ${String(it.detail?.attempt)})` : '';

export function DecisionForm(props: { item: ApprovalItem; onDecided?: (answer: ApprovalItem) => void }) {
  const live = props.item;
  const [held, setHeld] = useState<ApprovalItem | null>(null);
  const [reason, setReason] = useState('');
  const [toPhase, setToPhase] = useState('');
  const [override, setOverride] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const decide = useDecide();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const ids = useId();

  // States this form decided: a poll that answers one of them late is the past, never a question again.
  const [decided, setDecided] = useState<string[]>([]);
  const liveIsPast = decided.includes(live.etag ?? '');
  const locked = held?.id === live.id ? held : null;
  const movedOn = locked !== null && locked.etag !== live.etag && !liveIsPast;
  const shown = movedOn ? locked : live;
  /** The person started deciding: hold the item as shown now. */
  const engage = () => {
    if (!locked) setHeld(shown);
  };

  // A gate blocked only by overridable findings (a hand calculation over its allowable) offers approve over them.
  const overridable = shown.kind === 'gate' && shown.status === 'pending' && shown.detail?.overridable === true;
  const allowed = ORDER.filter((d) => shown.allowed_decisions?.includes(d));
  const needReason = shown.reason_required_for ?? [];
  const targets = shown.rework_targets ?? [];

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const overriding = submitter?.value === 'override';
    const decision = (overriding ? 'approve' : (submitter?.value ?? '')) as ApprovalDecision;
    if (!allowed.includes(decision) && !(overriding && overridable)) return;
    setDone(null);
    if (overriding && !override.trim()) {
      setProblem('Approving over the findings needs an override reason: write why in the override box.');
      return;
    }
    if (needReason.includes(decision) && !reason.trim()) {
      setProblem(`A reason is required to ${decision}: write why in the reason box.`);
      reasonRef.current?.focus();
      return;
    }
    if (decision === 'rework' && !toPhase) {
      setProblem('Rework needs the phase to go back to: choose one.');
      return;
    }
    setProblem(null);
    decide.mutate(
      {
        item: shown,
        decision,
        reason: reason.trim(),
        toPhase,
        ...(overriding ? { overrideReason: override.trim() } : {}),
      },
      {
        onSuccess: (answer) => {
          setDecided((d) => [...d, shown.etag ?? '']);
          setHeld(null);
          setReason('');
          setToPhase('');
          setOverride('');
          setDone(`Recorded: ${decision} (the item is ${answer.status} now).`);
          props.onDecided?.(answer);
        },
      },
    );
  };

  return (
    <div data-testid="decision-form">
      {movedOn && (
        <div className="note warn" role="status" data-testid="moved-on">
          This form shows “{locked.title}”{gateWords(locked)}, but the item moved on: it is now “{live.title}” (
          {live.status}). A decision here names the state you saw and will be refused.{' '}
          <button
            type="button"
            onClick={() => {
              decide.reset();
              setProblem(null);
              setHeld(null);
            }}
          >
            Show the current state
          </button>
        </div>
      )}
      {!shown.decidable && shown.not_decidable_reason && shown.status === 'pending' && (
        <p className="muted">Not decidable now: {shown.not_decidable_reason}</p>
      )}
      {allowed.length > 0 && !(liveIsPast && !movedOn) && (
        <form
          onSubmit={submit}
          aria-label={`Decide: ${shown.title}`}
          onFocus={engage}
          onPointerDown={engage}
          onInput={engage}
        >
          <DecidingAs />
          <label style={{ display: 'flex' }}>
            Reason
            {needReason.length ? ` (required to ${needReason.join(', ')})` : ' (optional)'}
            <textarea
              ref={reasonRef}
              id={`${ids}-reason`}
              name="reason"
              value={reason}
              maxLength={2000}
              onChange={(e) => setReason(e.target.value)}
            />
          </label>
          {overridable && (
            <label style={{ display: 'flex' }}>
              Override reason (to approve over the findings; recorded)
              <textarea
                name="override_reason"
                value={override}
                maxLength={2000}
                onChange={(e) => setOverride(e.target.value)}
              />
            </label>
          )}
          <div className="toolbar">
            {allowed.includes('rework') && (
              <label>
                Rework from phase
                <select name="to_phase" value={toPhase} onChange={(e) => setToPhase(e.target.value)}>
                  <option value="">Choose a phase…</option>
                  {targets.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {allowed.map((d) => (
              <button
                key={d}
                type="submit"
                value={d}
                disabled={decide.isPending}
                className={d === 'approve' ? 'primary' : d === 'reject' ? 'danger' : undefined}
              >
                {LABEL[d]}
              </button>
            ))}
            {overridable && (
              <button type="submit" value="override" disabled={decide.isPending} className="danger">
                Approve over the findings
              </button>
            )}
          </div>
        </form>
      )}
      {problem && (
        <div className="note error" role="alert">
          {problem}
        </div>
      )}
      <ErrorNote error={decide.error} prefix="Decision refused" />
      {done && !decide.error && (
        <p role="status" data-testid="decision-done">
          {done}
        </p>
      )}
    </div>
  );
}
