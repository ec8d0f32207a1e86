import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { ConfigError, type ServiceConfig } from '../../brokers/config.ts';
import type { Principal } from '../../contracts/principal.ts';

/** What the token verifier needs: who issues tokens, the audience they must carry, where the scopes are. */
export interface OAuthConfig {
  /** The authorization server's issuer identifier (`iss` of every accepted token). */
  issuer: string;
  /** The canonical resource URI of the tool server (`<public url>/mcp`, RFC 8707). */
  resource: string;
  /** The `aud` a token must name: SERVICE_OAUTH_AUDIENCE, else the resource URI. */
  audience: string;
  /** The claim holding the scopes: a space-separated string or an array of strings (`scope` by default). */
  scopesClaim: string;
  /** Allowed clock skew on `exp`/`nbf`, seconds (30: decision 0110). */
  clockToleranceSeconds: number;
}

/** Asymmetric JWS algorithms only: `none` and the HMAC family (HS*) are refused whatever the token says. */
export const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

export const CLOCK_TOLERANCE_SECONDS = 30;

/** Why a token was refused (logged; the client sees `invalid_token`). */
export type RefusalReason =
  'malformed' | 'algorithm' | 'signature' | 'expired' | 'not_yet_valid' | 'issuer' | 'audience' | 'claims';

/** A token this server will not accept: answered 401 `error="invalid_token"`. */
export class TokenRefused extends Error {
  override name = 'TokenRefused';
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The issuer's metadata or keys could not be had: not the token's fault, answered 503 (retry later). */
export class IssuerUnavailable extends Error {
  override name = 'IssuerUnavailable';
}

export interface TokenVerifier {
  readonly config: OAuthConfig;
  /** Verifies a bearer access token; throws TokenRefused or IssuerUnavailable. */
  verify(token: string): Promise<Principal>;
}

/** The canonical resource URI of the tool server: `<public url>/mcp`, scheme and host lower-cased, no trailing slash. */
export function resourceUriOf(publicUrl: string): string {
  const u = new URL(publicUrl);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}/mcp`;
}

/** The OAuth configuration of this node, or undefined when SERVICE_OAUTH_ISSUER is unset (shared key / open only). */
export function oauthConfigOf(
  config: Pick<
    ServiceConfig,
    'SERVICE_PUBLIC_URL' | 'SERVICE_OAUTH_ISSUER' | 'SERVICE_OAUTH_AUDIENCE' | 'SERVICE_OAUTH_SCOPES_CLAIM'
  >,
): OAuthConfig | undefined {
  if (!config.SERVICE_OAUTH_ISSUER) return undefined;
  if (!config.SERVICE_PUBLIC_URL)
    throw new ConfigError(
      'SERVICE_OAUTH_ISSUER needs SERVICE_PUBLIC_URL: the canonical URL clients reach this service at (the resource is <public url>/mcp)',
    );
  const resource = resourceUriOf(config.SERVICE_PUBLIC_URL);
  return {
    issuer: config.SERVICE_OAUTH_ISSUER,
    resource,
    audience: config.SERVICE_OAUTH_AUDIENCE ?? resource,
    scopesClaim: config.SERVICE_OAUTH_SCOPES_CLAIM,
    clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
  };
}

/** Where the issuer publishes its metadata: OpenID discovery first, then RFC 8414 (path-inserted form). */
export function metadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/+$/, '');
  return [
    `${u.origin}${path}/.well-known/openid-configuration`,
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${u.origin}/.well-known/openid-configuration${path}`,
  ];
}

/** Reads the issuer's metadata and checks it names the configured issuer (RFC 8414 section 3.3). */
export async function discoverJwksUri(issuer: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const res = await fetchImpl(url, { signal: AbortSignal.timeout(5000), headers: { accept: 'application/json' } });
      if (!res.ok) {
        problems.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      const meta = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (meta.issuer !== issuer)
        throw new IssuerUnavailable(`${url} names issuer ${String(meta.issuer)}, not ${issuer}`);
      if (typeof meta.jwks_uri !== 'string') throw new IssuerUnavailable(`${url} has no jwks_uri`);
      return meta.jwks_uri;
    } catch (err) {
      if (err instanceof IssuerUnavailable) throw err;
      problems.push(`${url}: ${(err as Error).message}`);
    }
  }
  throw new IssuerUnavailable(`issuer metadata unavailable: ${problems.join('; ')}`);
}

const CLIENT_GRANTS = new Set(['client_credentials', 'client-credentials']);

/**
 * Person or client (decision 0110): a token is a client's own when its grant claim (`gty`, `grant_type`) says client
 * credentials, Entra's `idtyp` is `app`, Auth0's subject ends in `@clients`, or its subject is its client id.
 */
export function kindOf(claims: JWTPayload, clientId: string | null): Principal['kind'] {
  const grant = claims.gty ?? claims.grant_type;
  if (typeof grant === 'string' && CLIENT_GRANTS.has(grant)) return 'client';
  if (claims.idtyp === 'app') return 'client';
  if (typeof claims.sub === 'string' && (claims.sub.endsWith('@clients') || claims.sub === clientId)) return 'client';
  return 'person';
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The principal of verified claims; a token without a subject or with a malformed scopes claim is refused. */
export function principalOf(claims: JWTPayload, scopesClaim: string): Principal {
  const subject = str(claims.sub);
  if (!subject) throw new TokenRefused('claims', 'the token has no subject (sub)');
  const raw = claims[scopesClaim];
  let scopes: string[];
  if (raw === undefined) scopes = [];
  else if (typeof raw === 'string') scopes = raw.split(' ').filter(Boolean);
  else if (Array.isArray(raw) && raw.every((s) => typeof s === 'string')) scopes = raw;
  else throw new TokenRefused('claims', `the ${scopesClaim} claim is neither a string nor a list of strings`);
  const client_id = str(claims.client_id) ?? str(claims.azp) ?? str(claims.appid) ?? str(claims.cid) ?? null;
  return { subject, client_id, scopes, kind: kindOf(claims, client_id) };
}

function refusalOf(err: unknown): Error {
  if (err instanceof TokenRefused || err instanceof IssuerUnavailable) return err;
  if (err instanceof errors.JWTExpired) return new TokenRefused('expired', 'the token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    const reason: RefusalReason =
      err.claim === 'iss'
        ? 'issuer'
        : err.claim === 'aud'
          ? 'audience'
          : err.claim === 'nbf'
            ? 'not_yet_valid'
            : 'claims';
    return new TokenRefused(reason, `the token's ${err.claim} claim is not acceptable (${err.reason})`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed)
    return new TokenRefused('algorithm', 'the token is not signed with an accepted algorithm');
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return new TokenRefused('signature', 'the token signature does not verify');
  if (err instanceof errors.JWKSNoMatchingKey)
    return new TokenRefused('signature', "no key of the issuer matches the token's kid");
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid)
    return new IssuerUnavailable(`the issuer's keys are unavailable: ${(err as Error).message}`);
  if (err instanceof errors.JOSEError)
    return new TokenRefused('malformed', `the token is not a valid JWT (${err.code})`);
  if (err instanceof TypeError || err instanceof SyntaxError)
    return new IssuerUnavailable(`the issuer's keys are unavailable: ${err.message}`);
  return new TokenRefused('malformed', 'the token is not a valid JWT');
}

/**
 * The access-token verifier (issue 29 point 1): JWTs checked locally with jose against the issuer's JWKS, discovered
 * once from its metadata and cached (jose re-fetches on an unknown `kid`, at most once per 30 s cooldown). Checks the
 * signature (asymmetric algorithms only), `iss`, `aud` (the resource URI or SERVICE_OAUTH_AUDIENCE), `exp` (required)
 * and `nbf` with 30 s skew, and that a subject is present. One verifier per node: the tool server and the approvals
 * routes share it.
 */
export function createTokenVerifier(config: OAuthConfig, opts: { fetch?: typeof fetch } = {}): TokenVerifier {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = () => {
    keys ??= discoverJwksUri(config.issuer, opts.fetch).then((uri) =>
      createRemoteJWKSet(new URL(uri), { cooldownDuration: 30_000, timeoutDuration: 5000 }),
    );
    // A failed discovery is not cached: the next request tries again.
    keys.catch(() => (keys = undefined));
    return keys;
  };
  return {
    config,
    async verify(token) {
      if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new TokenRefused('malformed', 'the token is not a signed JWT');
      try {
        const jwks = await keySet();
        const { payload } = await jwtVerify(token, jwks, {
          issuer: config.issuer,
          audience: config.audience,
          algorithms: ACCEPTED_ALGORITHMS,
          clockTolerance: config.clockToleranceSeconds,
          requiredClaims: ['exp', 'sub'],
        });
        return principalOf(payload, config.scopesClaim);
      } catch (err) {
        throw refusalOf(err);
      }
    },
  };
}

const verifiers = new WeakMap<object, TokenVerifier | null>();

/**
 * The node's one access-token verifier for this configuration (its JWKS cache is shared by the tool server and the
 * approvals routes), or undefined when no issuer is configured. A bad combination stops the start (ConfigError).
 */
export function tokenVerifierFor(config: Parameters<typeof oauthConfigOf>[0]): TokenVerifier | undefined {
  let v = verifiers.get(config);
  if (v === undefined) {
    const oauth = oauthConfigOf(config);
    v = oauth ? createTokenVerifier(oauth) : null;
    verifiers.set(config, v);
  }
  return v ?? undefined;
}
