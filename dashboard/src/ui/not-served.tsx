/**
 * A route this gateway does not serve (yet): the gateway answers 404 NOT_FOUND "no route GET /v1/..." for an API
 * path it has no handler for. Pages say so in words instead of inventing data; any other 404 (an unknown id on a
 * route that exists) is an ordinary error.
 */
import { ApiError } from '../api/gateway.ts';

export function isRouteMissing(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404 && err.code === 'NOT_FOUND' && /^no route /.test(err.message);
}

/** "This gateway has no /v1/... route yet", naming the path asked and what the page would show with it. */
export function NotServed(props: { path: string; what: string }) {
  return (
    <div className="note warn" role="status" data-testid="not-served">
      This gateway does not serve {props.what} yet: it has no <code>{props.path}</code> route (it answered 404
      NOT_FOUND). Nothing is shown rather than made up.
    </div>
  );
}
