import crypto from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import { ConfigError, type ServiceConfig } from '../../brokers/config.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Principal } from '../../contracts/principal.ts';
import { IssuerUnavailable, tokenVerifierFor, TokenRefused, type TokenVerifier } from '../auth/oauth.ts';

/** The token file: a JSON object mapping each bearer token (at least 16 characters) to the principal it names. */
export const TokenFileSchema = z
  .record(z.string(), z.string().min(1, { message: 'a principal is a non-empty string' }))
  .refine((m) => Object.keys(m).every((k) => k.length >= 16), { message: 'a token has at least 16 characters' });

/**
 * What the gateway learned from a request's `Authorization` header: the principal a token file names, or the subject
 * of a verified OAuth access token with the verified principal (`oauth`: scopes and kind decide what it may do).
 */
export type AuthResult =
  | { on: false }
  | { on: true; principal: string; oauth?: Principal }
  | { on: true; error: 'missing_key' | 'mismatch' | 'invalid_token'; message?: string };

/**
 * Gateway authentication of the approvals API (docs/api.md "Gateway authentication"): on when a token file
 * (`SERVICE_AUTH_TOKENS_PATH`) or an issuer (`SERVICE_OAUTH_ISSUER`, decision 0122) is set, off otherwise.
 */
export interface ApprovalAuth {
  readonly on: boolean;
  /** Resolves the principal of a request from its `Authorization: Bearer <token>` header. */
  resolve(authorization: string | undefined): Promise<AuthResult>;
}

/** The token file's lookup: the principal a token names, compared in constant time against every entry. */
type FileLookup = (token: string) => string | undefined;

const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();

/**
 * Reads `SERVICE_AUTH_TOKENS_PATH`: a JSON file `{"<token>": "<principal>"}` that only its owner may read or write
 * (like the credential store of SPEC Gateway rule 7); anything else stops the start with a ConfigError naming the
 * variable. Tokens are compared as SHA-256 digests with a constant-time comparison against every entry.
 */
export function loadTokenFile(path: string): FileLookup {
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
  return (token) => {
    const h = digest(token);
    let found: string | undefined;
    for (const e of entries) if (crypto.timingSafeEqual(e.hash, h)) found ??= e.principal;
    return found;
  };
}

/** A compact JWS (three base64url parts): the only shape handed to the OAuth verifier. */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * The approvals authentication from its two sources (decision 0122): a token the file names is that principal; else,
 * with an issuer, a JWT-shaped token is verified as an OAuth access token (its subject is the principal). A token
 * neither knows is 401 `mismatch`; a JWT the verifier refuses (expired, bad signature, other audience or issuer) is
 * 401 `invalid_token`; an issuer whose keys cannot be had is 503, never a refusal of the person's token.
 */
export function createApprovalAuth(src: { file?: FileLookup; verifier?: TokenVerifier }): ApprovalAuth {
  const { file, verifier } = src;
  if (!file && !verifier) return { on: false, resolve: async () => ({ on: false }) };
  return {
    on: true,
    async resolve(authorization) {
      const m = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
      if (!m) return { on: true, error: 'missing_key' };
      const token = m[1];
      const named = file?.(token);
      if (named !== undefined) return { on: true, principal: named };
      if (!verifier || !JWT_SHAPE.test(token)) return { on: true, error: 'mismatch' };
      try {
        const p = await verifier.verify(token);
        return { on: true, principal: p.subject, oauth: p };
      } catch (err) {
        if (err instanceof TokenRefused) return { on: true, error: 'invalid_token', message: err.message };
        if (err instanceof IssuerUnavailable)
          throw new ActorError('SERVICE_UNAVAILABLE', `the token issuer cannot be reached: ${err.message}`, {
            issuer: verifier.config.issuer,
          });
        throw err;
      }
    },
  };
}

/** The token-file authentication alone (`SERVICE_AUTH_TOKENS_PATH`; off when unset). */
export function loadApprovalAuth(path: string | undefined): ApprovalAuth {
  return createApprovalAuth({ file: path ? loadTokenFile(path) : undefined });
}

const cache = new WeakMap<object, ApprovalAuth>();

/** The gateway's approvals authentication for this configuration, loaded once (the gateway build loads it at start). */
export function approvalAuthFor(
  config: Pick<
    ServiceConfig,
    | 'SERVICE_AUTH_TOKENS_PATH'
    | 'SERVICE_PUBLIC_URL'
    | 'SERVICE_OAUTH_ISSUER'
    | 'SERVICE_OAUTH_AUDIENCE'
    | 'SERVICE_OAUTH_SCOPES_CLAIM'
  >,
): ApprovalAuth {
  let a = cache.get(config);
  if (!a) {
    // The node's one verifier: its JWKS cache is shared with the tool server.
    a = createApprovalAuth({
      file: config.SERVICE_AUTH_TOKENS_PATH ? loadTokenFile(config.SERVICE_AUTH_TOKENS_PATH) : undefined,
      verifier: tokenVerifierFor(config),
    });
    cache.set(config, a);
  }
  return a;
}
