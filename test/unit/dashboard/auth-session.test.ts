import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearerHeaders, currentSession, saveSession, signOut } from '../../../dashboard/src/auth/session.ts';

/** The browser's sessionStorage, as a Map: the one boundary the session module touches. */
class MemoryStorage {
  private m = new Map<string, string>();
  getItem = (k: string) => this.m.get(k) ?? null;
  setItem = (k: string, v: string) => void this.m.set(k, String(v));
  removeItem = (k: string) => void this.m.delete(k);
}

const g = globalThis as { sessionStorage?: unknown };
const person = (expires_at: number) => ({
  access_token: 'eyJ.person-b.sig',
  expires_at,
  sub: 'person-b',
  name: 'Person B',
  email: 'b@example.test',
  issuer: 'http://127.0.0.1:1/',
});

// Decision 0121: the token lives in this tab's sessionStorage; an expired one reads as signed out and sends nothing.
describe('dashboard sign-in session', () => {
  beforeEach(() => {
    g.sessionStorage = new MemoryStorage();
  });
  afterEach(() => {
    signOut();
    delete g.sessionStorage;
  });

  it('sends no bearer when no one is signed in, or when the stored session is not one', () => {
    expect(currentSession()).toBeUndefined();
    expect(bearerHeaders()).toEqual({});
    (g.sessionStorage as MemoryStorage).setItem('service.auth.session', '{"access_token": 3}');
    expect(currentSession()).toBeUndefined();
    (g.sessionStorage as MemoryStorage).setItem('service.auth.session', 'not json');
    expect(bearerHeaders()).toEqual({});
  });

  it('reads an expired token as signed out', () => {
    const now = 1_000_000;
    saveSession(person(now));
    expect(currentSession(now)).toBeUndefined();
    expect(currentSession(now - 1)?.name).toBe('Person B');
  });

  it('sends the access token as the bearer while it is valid, and nothing after sign-out', () => {
    saveSession(person(Date.now() + 60_000));
    expect(bearerHeaders()).toEqual({ authorization: 'Bearer eyJ.person-b.sig' });
    expect(currentSession()?.sub).toBe('person-b');
    signOut();
    expect(bearerHeaders()).toEqual({});
    expect((g.sessionStorage as MemoryStorage).getItem('service.auth.session')).toBeNull();
  });
});
