/** Badges of the design flows: the completion verdict and phase statuses, coloured by what they mean. */
import { StatusBadge } from './common.tsx';

const TONE: Record<string, 'ok' | 'bad' | 'warn' | 'info' | 'muted'> = {
  COMPLETED_VERIFIED: 'ok',
  COMPLETED_WITH_WARNINGS: 'warn',
  PARTIALLY_COMPLETED: 'warn',
  BLOCKED: 'warn',
  IN_PROGRESS: 'info',
  FAILED: 'bad',
  CANCELLED: 'muted',
  awaiting_gate: 'warn',
  AWAITING_GATE: 'warn',
  COMPLETED: 'ok',
  VALID: 'ok',
  ELIGIBLE: 'info',
  RUNNING: 'info',
  STALE: 'warn',
  POTENTIALLY_INVALID: 'warn',
  PENDING: 'muted',
  SKIPPED: 'muted',
  skipped: 'muted',
  approve: 'ok',
  reject: 'bad',
  retry: 'warn',
  rework: 'warn',
};

/** A flow word as a badge: verdicts and phase view values get their own tone, anything else StatusBadge's. */
export function FlowBadge(props: { value: string | null | undefined; testId?: string }) {
  const v = props.value ?? 'unknown';
  const tone = TONE[v];
  if (!tone) {
    return props.testId ? (
      <span data-testid={props.testId}>
        <StatusBadge status={v} />
      </span>
    ) : (
      <StatusBadge status={v} />
    );
  }
  return (
    <span className={`badge ${tone}`} data-testid={props.testId}>
      {v}
    </span>
  );
}

export const VerdictBadge = (props: { verdict: string | null | undefined; testId?: string }) => (
  <FlowBadge value={props.verdict} testId={props.testId} />
);
