/**
 * The shell's sign-in corner (issue 29 point 4): nothing without an issuer; else "Sign in", or who is signed in (the
 * ID token's name, email or subject) with "Sign out". Decisions are credited from the token by the gateway.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { queryClient } from '../api/query-client.ts';
import { useAuthConfig } from './config.ts';
import { beginSignIn, signInError } from './oidc.ts';
import { signOut, useSession } from './session.ts';

export function SignInStatus() {
  const cfg = useAuthConfig();
  const session = useSession();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Signing out (or the token expiring) changes what the gateway answers: every cached answer is fetched again.
  const who = useRef(session?.sub);
  useEffect(() => {
    if (who.current !== session?.sub) void queryClient.invalidateQueries();
    who.current = session?.sub;
  }, [session?.sub]);
  if (!cfg?.sign_in) return null;
  if (session && session.issuer === cfg.issuer)
    return (
      <span className="signed-in" data-testid="signed-in">
        <span title={session.email ?? session.sub}>Signed in as {session.name}</span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </span>
    );
  const start = () => {
    setBusy(true);
    setError(null);
    beginSignIn(cfg, `${location.pathname}${location.search}`).catch((err: unknown) => {
      setBusy(false);
      setError(signInError(err));
    });
  };
  return (
    <span className="signed-in" data-testid="signed-out">
      {error && (
        <span className="chip bad" role="alert">
          Sign-in failed: {error}
        </span>
      )}
      <button type="button" onClick={start} disabled={busy}>
        Sign in
      </button>
    </span>
  );
}
