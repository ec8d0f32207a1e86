import { Link, useLocation } from 'react-router';
import { Page } from '../ui/common.tsx';

/** Any path the dashboard does not know (SPEC: an unknown path shows a page-not-found screen). */
export function Component() {
  const { pathname } = useLocation();
  return (
    <Page title="Page not found">
      <p data-testid="not-found">
        There is no page at <code>{pathname}</code>.
      </p>
      <p>
        Go to <Link to="/projects">Projects</Link> or pick a page on the left.
      </p>
    </Page>
  );
}
