/**
 * The signed-in person of this tab (decision 0121): the access token, when it expires and who the ID token names,
 * kept in sessionStorage (this tab only, gone when it closes; never localStorage). An expired session reads as signed
 * out. Only `gateway.ts` reads the token, to send it as the bearer; the shell reads the name.
 */
import { useEffect, useSyncExternalStore } from 'react';

const SESSION_KEY = 'service.auth.session';

/** Who is signed in, from the ID token's claims, and the access token the gateway checks. */
export interface Session {
  access_token: string;
  /** Milliseconds since the epoch at which the access token stops being accepted. */
  expires_at: number;
  sub: string;
  /** The name to show: the ID token's name, else its email, else its subject. */
  name: string;
  email: string | null;
  issuer: string;
}

const listeners = new Set<() => void>();
let cachedRaw: string | null = null;
let cached: Session | undefined;

const notify = () => listeners.forEach((l) => l());

function parse(raw: string | null): Session | undefined {
  if (!raw) return undefined;
  try {
    const s = JSON.parse(raw) as Partial<Session>;
    const ok =
      typeof s.access_token === 'string' &&
      typeof s.expires_at === 'number' &&
      typeof s.sub === 'string' &&
      typeof s.name === 'string' &&
      typeof s.issuer === 'string';
    return ok ? ({ email: null, ...s } as Session) : undefined;
  } catch {
    return undefined;
  }
}

function read(): string | null {
  try {
    return sessionStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

/** The session of this tab, or undefined when no one is signed in or its token has expired (pure: no sign-out). */
export function currentSession(now = Date.now()): Session | undefined {
  const raw = read();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parse(raw);
  }
  return cached && cached.expires_at > now ? cached : undefined;
}

/** Stores a new session (after the callback's token exchange) and tells the shell. */
export function saveSession(s: Session): void {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
  notify();
}

/** Forgets the token and the person (sign-out, expiry, or a token the gateway refused). */
export function signOut(): void {
  try {
    sessionStorage.removeItem(SESSION_KEY);
  } catch {
    // storage unavailable: nothing was stored
  }
  cachedRaw = null;
  cached = undefined;
  notify();
}

/** The bearer header for the gateway, when someone is signed in. */
export function bearerHeaders(): Record<string, string> {
  const s = currentSession();
  return s ? { authorization: `Bearer ${s.access_token}` } : {};
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The session for a component; re-renders on sign-in and sign-out, and signs out when the token expires. */
export function useSession(): Session | undefined {
  const session = useSyncExternalStore(subscribe, () => currentSession());
  useEffect(() => {
    if (!session) return;
    // At the expiry the token is forgotten and the shell redraws signed out (currentSession() already refuses it).
    const t = setTimeout(signOut, Math.max(0, session.expires_at - Date.now()));
    return () => clearTimeout(t);
  }, [session]);
  return session;
}
