import crypto from 'node:crypto';

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
