import crypto from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import { ConfigError, type ServiceConfig } from '../../brokers/config.ts';

/** The token file: a JSON object mapping each bearer token (at least 16 characters) to the principal it names. */
export const TokenFileSchema = z
  .record(z.string(), z.string().min(1, { message: 'a principal is a non-empty string' }))
  .refine((m) => Object.keys(m).every((k) => k.length >= 16), { message: 'a token has at least 16 characters' });

/** What the gateway learned from a request's `Authorization` header. */
export type AuthResult =
  { on: false } | { on: true; principal: string } | { on: true; error: 'missing_key' | 'mismatch' };

/** Gateway authentication of the approvals API (README "Gateway authentication"); off when no token file is set. */
export interface ApprovalAuth {
  readonly on: boolean;
  /** Resolves the principal of a request from its `Authorization: Bearer <token>` header. */
  resolve(authorization: string | undefined): AuthResult;
}

const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();

/**
 * Reads `SERVICE_AUTH_TOKENS_PATH`: a JSON file `{"<token>": "<principal>"}` that only its owner may read or write
 * (like the credential store of SPEC Gateway rule 7); anything else stops the start with a ConfigError naming the
 * variable. Tokens are compared as SHA-256 digests with a constant-time comparison against every entry.
 */
export function loadApprovalAuth(path: string | undefined): ApprovalAuth {
  if (!path) return { on: false, resolve: () => ({ on: false }) };
  let stat: fs.Stats;
  let text: string;
  try {
    stat = fs.statSync(path);
    text = fs.readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`SERVICE_AUTH_TOKENS_PATH: cannot read ${path}: ${(err as Error).message}`);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new ConfigError(
      `SERVICE_AUTH_TOKENS_PATH: ${path} is accessible to group or others (mode ${(stat.mode & 0o777).toString(8)}); it holds secrets: chmod 600 it`,
    );
  }
  let parsed;
  try {
    parsed = TokenFileSchema.safeParse(JSON.parse(text));
  } catch (err) {
    throw new ConfigError(`SERVICE_AUTH_TOKENS_PATH: ${path} is not JSON: ${(err as Error).message}`);
  }
  if (!parsed.success)
    throw new ConfigError(
      `SERVICE_AUTH_TOKENS_PATH: ${path} must map tokens to principals ({"<token>": "<principal>"}): ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
  const entries = Object.entries(parsed.data).map(([token, principal]) => ({ hash: digest(token), principal }));
  if (!entries.length) throw new ConfigError(`SERVICE_AUTH_TOKENS_PATH: ${path} names no token`);
  return {
    on: true,
    resolve(authorization) {
      const m = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
      if (!m) return { on: true, error: 'missing_key' };
      const h = digest(m[1]);
      let found: string | undefined;
      for (const e of entries) if (crypto.timingSafeEqual(e.hash, h)) found ??= e.principal;
      return found === undefined ? { on: true, error: 'mismatch' } : { on: true, principal: found };
    },
  };
}

const cache = new WeakMap<object, ApprovalAuth>();

/** The gateway's approvals authentication for this configuration, loaded once (the gateway build loads it at start). */
export function approvalAuthFor(config: Pick<ServiceConfig, 'SERVICE_AUTH_TOKENS_PATH'>): ApprovalAuth {
  let a = cache.get(config);
  if (!a) {
    a = loadApprovalAuth(config.SERVICE_AUTH_TOKENS_PATH);
    cache.set(config, a);
  }
  return a;
}
