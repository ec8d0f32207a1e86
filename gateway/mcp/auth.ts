import crypto from 'node:crypto';
import type { Principal } from '../../contracts/principal.ts';
import { IssuerUnavailable, TokenRefused, type TokenVerifier } from '../auth/oauth.ts';
import { challengeOf } from '../auth/resource-server.ts';

export type AuthCheck = { ok: true } | { ok: false; reason: 'missing_key' | 'mismatch' };

const HMAC_KEY = crypto.randomBytes(32);
const digest = (s: string) => crypto.createHmac('sha256', HMAC_KEY).update(s, 'utf8').digest();

/**
 * The tool server's shared-key check (SPEC "Authentication / Tool server transports"): `Authorization: Bearer <key>`,
 * the scheme in any case.
 * Both sides are HMAC'd to fixed-length digests before `timingSafeEqual`, so neither content nor length leaks through
 * timing. Nothing is trimmed: a key with a trailing newline mismatches. Unset key = open mode.
 */
export function checkApiKey(expected: string | undefined, authorization: string | undefined): AuthCheck {
  if (expected === undefined) return { ok: true };
  if (authorization === undefined || authorization === '') return { ok: false, reason: 'missing_key' };
  // RFC 7235: the scheme is case-insensitive (the approvals routes match it the same way); the key is taken as sent.
  const presented = /^bearer +([^]*)$/i.exec(authorization)?.[1];
  if (presented === undefined) return { ok: false, reason: 'mismatch' };
  return crypto.timingSafeEqual(digest(presented), digest(expected)) ? { ok: true } : { ok: false, reason: 'mismatch' };
}

/** The 401 body of a transport auth failure. */
export function authErrorBody(reason: 'missing_key' | 'mismatch') {
  return {
    error: 'auth_error',
    reason,
    message:
      reason === 'missing_key' ? 'this endpoint needs Authorization: Bearer <key>' : 'the presented key does not match',
  };
}

/** The tool server's transport authentication (SPEC rule 6): the shared key, OAuth access tokens, both, or open. */
export interface TransportAuth {
  readonly mode: 'open' | 'api_key' | 'oauth' | 'api_key+oauth';
  /** Admits a request (principal set for an access token, unset for the shared key or open mode) or refuses it. */
  authenticate(authorization: string | undefined): Promise<TransportAuthResult>;
}

export type TransportAuthResult =
  | { ok: true; principal?: Principal }
  | {
      ok: false;
      status: 401 | 503;
      reason: 'missing_key' | 'mismatch' | 'issuer_unavailable';
      challenge: string;
      body: ReturnType<typeof authErrorBody> | { error: 'auth_error'; reason: string; message: string };
      detail?: string;
    };

/**
 * The shared key beside OAuth (issue 29 point 1): a bearer equal to the shared key is admitted as before (no
 * principal); any other bearer is verified as an access token when an issuer is configured. Without a credential,
 * or with one refused, the answer is 401 with the `WWW-Authenticate` challenge naming the resource metadata (and
 * `error="invalid_token"` when a token was refused); an unreachable issuer is 503, retryable.
 */
export function createTransportAuth(opts: { apiKey?: string; verifier?: TokenVerifier }): TransportAuth {
  const { apiKey, verifier } = opts;
  const mode = verifier
    ? apiKey !== undefined
      ? 'api_key+oauth'
      : 'oauth'
    : apiKey !== undefined
      ? 'api_key'
      : 'open';
  const challenge = (refused?: string) =>
    verifier
      ? challengeOf(verifier.config, refused ? { error: 'invalid_token', description: refused } : undefined)
      : 'Bearer';
  return {
    mode,
    async authenticate(authorization) {
      if (mode === 'open') return { ok: true };
      if (apiKey !== undefined && checkApiKey(apiKey, authorization).ok) return { ok: true };
      const presented = /^bearer +([^]*)$/i.exec(authorization ?? '')?.[1];
      if (!authorization || presented === undefined || !verifier) {
        const reason = authorization ? 'mismatch' : 'missing_key';
        return {
          ok: false,
          status: 401,
          reason,
          challenge: challenge(authorization ? 'not a bearer token' : undefined),
          body: authErrorBody(reason),
        };
      }
      try {
        return { ok: true, principal: await verifier.verify(presented) };
      } catch (err) {
        if (err instanceof TokenRefused)
          return {
            ok: false,
            status: 401,
            reason: 'mismatch',
            challenge: challenge(err.message),
            body: { ...authErrorBody('mismatch'), message: err.message },
            detail: err.reason,
          };
        if (err instanceof IssuerUnavailable)
          return {
            ok: false,
            status: 503,
            reason: 'issuer_unavailable',
            challenge: challenge(),
            body: {
              error: 'auth_error',
              reason: 'issuer_unavailable',
              message: 'the token issuer cannot be reached; try again',
            },
            detail: err.message,
          };
        throw err;
      }
    },
  };
}

/** What the tool-server transport enforces, as `/health` names it (SPEC "Tool server transports" rule 6). */
export function transportAuthMode(config: {
  SERVICE_MCP_API_KEY?: string;
  SERVICE_OAUTH_ISSUER?: string;
}): TransportAuth['mode'] {
  const key = config.SERVICE_MCP_API_KEY !== undefined;
  if (config.SERVICE_OAUTH_ISSUER) return key ? 'api_key+oauth' : 'oauth';
  return key ? 'api_key' : 'open';
}
