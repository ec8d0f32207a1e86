import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** A page that failed to load or render: what happened, and a way back (never a blank screen). */
export function RouteError() {
  const err = useRouteError();
  const text = isRouteErrorResponse(err)
    ? `${err.status} ${err.statusText}`
    : err instanceof Error
      ? err.message
      : String(err);
  return (
    <main className="page" id="main">
      <h1>Something went wrong</h1>
      <div className="note error" role="alert">
        {text}
      </div>
      <p>
        <Link to="/projects">Back to Projects</Link>
      </p>
    </main>
  );
}
