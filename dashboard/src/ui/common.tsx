/** Small pieces every page uses: the page title, loading and error states, the unscoped note, status badges. */
import { useEffect, type ReactNode } from 'react';
import { describeError } from '../api/gateway.ts';

/** A page: its heading and the document title (`<title> · Engineering design service`). */
export function Page(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${props.title} · Engineering design service`;
  }, [props.title]);
  return (
    <>
      <div className="toolbar" style={{ justifyContent: 'space-between', marginTop: 0 }}>
        <h1>{props.title}</h1>
        {props.actions}
      </div>
      {props.children}
    </>
  );
}

export const Loading = (props: { what?: string }) => (
  <p className="muted" role="status">
    Loading{props.what ? ` ${props.what}` : ''}…
  </p>
);

/** A failed request or refused action, in words; role=alert so it is announced. */
export function ErrorNote(props: { error: unknown; prefix?: string }) {
  if (!props.error) return null;
  return (
    <div className="note error" role="alert">
      {props.prefix ? `${props.prefix}: ` : ''}
      {describeError(props.error)}
    </div>
  );
}

export const Empty = (props: { children: ReactNode }) => <p className="muted">{props.children}</p>;

/**
 * Items the API left out of a project-scoped list because they record no project (`unscoped_count`): never hidden.
 * `what` is the plural noun ("runs"); one item reads in the singular.
 */
export function UnscopedNote(props: { count: number | undefined; what: string }) {
  if (!props.count) return null;
  const one = props.count === 1;
  const noun = one ? props.what.replace(/s$/, '') : props.what;
  return (
    <div className="note warn" data-testid="unscoped-note">
      {props.count} {noun} {one ? 'records' : 'record'} no project and {one ? 'is' : 'are'} left out of this list.
    </div>
  );
}

const TONE: Record<string, 'ok' | 'bad' | 'warn' | 'info' | 'muted'> = {
  COMPLETED_VERIFIED: 'ok',
  completed: 'ok',
  approved: 'ok',
  applied: 'ok',
  passed: 'ok',
  ok: 'ok',
  healthy: 'ok',
  pass: 'ok',
  committed: 'ok',
  FAILED: 'bad',
  failed: 'bad',
  rejected: 'bad',
  error: 'bad',
  unhealthy: 'bad',
  fail: 'bad',
  timed_out: 'bad',
  cancelled: 'muted',
  expired: 'muted',
  pending: 'warn',
  waiting_approval: 'warn',
  awaiting_approval: 'warn',
  blocked: 'warn',
  suspect: 'warn',
  degraded: 'warn',
  running: 'info',
  active: 'info',
  in_progress: 'info',
};

/** A status word as a badge, coloured by what it means (done, failed, waiting, running). */
export function StatusBadge(props: { status: string | null | undefined }) {
  const s = props.status ?? 'unknown';
  const tone = TONE[s] ?? TONE[s.toLowerCase()] ?? (/fail|error|reject/i.test(s) ? 'bad' : 'muted');
  return <span className={`badge ${tone}`}>{s}</span>;
}

/** A timestamp: short local time, the ISO value on hover. */
export function When(props: { at: string | null | undefined }) {
  if (!props.at) return <span className="muted">—</span>;
  const d = new Date(props.at);
  return (
    <time dateTime={props.at} title={props.at}>
      {Number.isNaN(d.getTime()) ? props.at : d.toLocaleString()}
    </time>
  );
}

/** A JSON value, pretty printed (details, arguments, results). */
export const Json = (props: { value: unknown }) => <pre className="json">{JSON.stringify(props.value, null, 2)}</pre>;
