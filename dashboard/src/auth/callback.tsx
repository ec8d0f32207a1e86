/**
 * `/auth/callback`: where the issuer sends the browser back with the code (decision 0120). Exchanges it once (a
 * re-render or StrictMode's second effect reuses the same exchange), then goes back to the page the sign-in began on.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Loading, Page } from '../ui/common.tsx';
import { useAuthConfig } from './config.ts';
import { completeSignIn, signInError, type SignInConfig } from './oidc.ts';

const exchanges = new Map<string, ReturnType<typeof completeSignIn>>();

function exchangeOnce(cfg: SignInConfig, href: string) {
  let p = exchanges.get(href);
  if (!p) {
    p = completeSignIn(cfg, new URL(href));
    exchanges.set(href, p);
  }
  return p;
}

export function Component() {
  const cfg = useAuthConfig();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!cfg) return;
    if (!cfg.sign_in) {
      setError('this gateway has no sign-in configured');
      return;
    }
    let live = true;
    exchangeOnce(cfg, location.href).then(
      ({ returnTo }) => live && void navigate(returnTo, { replace: true }),
      (err: unknown) => live && setError(signInError(err)),
    );
    return () => {
      live = false;
    };
  }, [cfg, navigate]);
  return (
    <Page title="Signing in">
      {error ? (
        <p role="alert" data-testid="sign-in-error">
          Sign-in failed: {error}. <Link to="/projects">Back to the dashboard</Link>
        </p>
      ) : (
        <Loading what="the sign-in" />
      )}
    </Page>
  );
}
