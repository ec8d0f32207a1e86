import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider, { errors } from 'oidc-provider';

/** A test account: who logs in, and the scopes it may be granted at the resource servers. */
export interface TestAccount {
  scopes: string[];
}

export interface TestIdpOptions {
  /** Resource indicators (RFC 8707) the provider issues JWT access tokens for, e.g. `<public url>/mcp`. */
  resources: string[];
  /** Accounts by id; a login names one with `login_hint` (authorize's second argument). */
  accounts: Record<string, TestAccount>;
  /** Scopes a resource server accepts (mcp:read mcp:write approvals:decide). */
  scopes?: string[];
  /** Access token lifetime, seconds (600). */
  accessTokenTtl?: number;
}

export interface TestIdp {
  /** The issuer identifier: `http://127.0.0.1:<port>`. */
  issuer: string;
  /** The signing key's id (every token this provider issues names it). */
  kid: string;
  /**
   * Drives an authorization request as `account`: follows the provider's redirects with a cookie jar, completes the
   * login and consent (granting the requested scopes the account may have) and returns the redirect back to the
   * client, with its `code` and `state`.
   */
  authorize(authorizationUrl: URL | string, account: string): Promise<URL>;
  /** Registers a confidential client (RFC 7591) for client credentials and gets it an access token. */
  clientCredentialsToken(opts: { resource: string; scope: string }): Promise<{ token: string; clientId: string }>;
  /** Signs arbitrary claims with this provider's key (typ at+jwt): for expired or malformed tokens. */
  sign(claims: JWTPayload, header?: { kid?: string; alg?: string }): Promise<string>;
  close(): Promise<void>;
}

const DEFAULT_SCOPES = ['mcp:read', 'mcp:write', 'approvals:decide'];

/**
 * A certified OpenID provider (oidc-provider v9) in-process on an ephemeral 127.0.0.1 port: open dynamic client
 * registration, PKCE, resource indicators issuing RS256 JWT access tokens for the configured resources, client
 * credentials, and interactions that complete by themselves for the account the request's `login_hint` names.
 */
export async function startTestIdp(opts: TestIdpOptions): Promise<TestIdp> {
  const scopes = opts.scopes ?? DEFAULT_SCOPES;
  const kid = `test-${crypto.randomUUID().slice(0, 8)}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    clients: [],
    scopes: ['openid', 'offline_access', ...scopes],
    findAccount: async (_ctx: unknown, id: string) =>
      opts.accounts[id] ? { accountId: id, claims: async () => ({ sub: id }) } : undefined,
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0] ?? opts.resources[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (!opts.resources.includes(resource)) throw new errors.InvalidTarget();
          return {
            scope: scopes.join(' '),
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: opts.accessTokenTtl ?? 600,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      ClientCredentials: 600,
      Grant: 600,
      Interaction: 600,
      Session: 600,
    },
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    const m = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (!m || req.method !== 'GET') return callback(req, res);
    completeInteraction(provider, opts.accounts, req, res).catch((err: Error) => {
      res.statusCode = 500;
      res.end(err.message);
    });
  });

  const post = async (path: string, body: unknown, auth?: string) => {
    const res = await fetch(`${issuer}${path}`, {
      method: 'POST',
      headers: {
        'content-type': typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json',
        ...(auth ? { authorization: auth } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, string>;
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  return {
    issuer,
    kid,
    async authorize(authorizationUrl, account) {
      const jar = new Map<string, string>();
      let url = new URL(String(authorizationUrl));
      url.searchParams.set('login_hint', account);
      for (let hop = 0; hop < 20; hop++) {
        if (url.origin !== issuer) return url;
        const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
        const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          const eq = pair.indexOf('=');
          jar.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        const location = res.headers.get('location');
        if (!location)
          throw new Error(`authorization stopped at ${url.pathname}: HTTP ${res.status} ${await res.text()}`);
        url = new URL(location, url);
      }
      throw new Error('authorization: too many redirects');
    },
    async clientCredentialsToken({ resource, scope }) {
      const reg = await post('/reg', {
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
        scope,
      });
      const basic = `Basic ${Buffer.from(`${reg.client_id}:${reg.client_secret}`).toString('base64')}`;
      const form = new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString();
      const tok = await post('/token', form, basic);
      return { token: tok.access_token, clientId: reg.client_id };
    },
    async sign(claims, header = {}) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: header.alg ?? 'RS256', kid: header.kid ?? kid, typ: 'at+jwt' })
        .sign(privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Login as the hinted account, then consent to the requested scopes the account may have. */
async function completeInteraction(
  provider: Provider,
  accounts: Record<string, TestAccount>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  const details = await provider.interactionDetails(req, res);
  const hint = String(details.params.login_hint ?? '');
  if (details.prompt.name === 'login') {
    if (!accounts[hint]) throw new Error(`no test account ${JSON.stringify(hint)} (send login_hint)`);
    return provider.interactionFinished(req, res, { login: { accountId: hint } }, { mergeWithLastSubmission: false });
  }
  const accountId = details.session?.accountId ?? hint;
  const allowed = new Set(accounts[accountId]?.scopes ?? []);
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  if (!grant) throw new Error('grant not found');
  const d = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
  if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
  for (const [resource, wanted] of Object.entries(d.missingResourceScopes ?? {})) {
    const granted = wanted.filter((s) => allowed.has(s));
    const refused = wanted.filter((s) => !allowed.has(s));
    if (granted.length) grant.addResourceScope(resource, granted.join(' '));
    if (refused.length) grant.rejectResourceScope(resource, refused.join(' '));
  }
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
