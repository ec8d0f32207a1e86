import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { interactionHandler } from './oidc-interactions.ts';

/** A test account: who logs in, the scopes it may be granted at the resource servers, its ID token's claims. */
export interface TestAccount {
  scopes: string[];
  /** The `name` claim (scope `profile`). */
  name?: string;
  /** The `email` claim (scope `email`). */
  email?: string;
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
  /**
   * Serve a real HTML login form (login, any non-empty password, a Sign-in button) and a consent page (Continue) for
   * a browser to fill in; false (default): the login completes by itself for the request's `login_hint`.
   */
  loginForm?: boolean;
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
  /** Registers a public client (RFC 7591: no secret, PKCE, one redirect URI), as an operator registers the dashboard. */
  registerPublicClient(redirectUri: string): Promise<string>;
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
 * credentials, ID tokens carrying the account's `name` and `email`, and interactions that complete by themselves for
 * the request's `login_hint` or, with `loginForm`, through a login page a browser fills in.
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
    scopes: ['openid', 'offline_access', 'profile', 'email', ...scopes],
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    // The ID token of a code flow carries the profile claims (the access token is for the service, not userinfo).
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, id: string) => {
      const a = opts.accounts[id];
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, name: a.name, email: a.email }) };
    },
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
  const interaction = interactionHandler(provider, (id) => opts.accounts[id]?.scopes, opts.loginForm ?? false);
  server.on('request', (req, res) => {
    const m = /^\/interaction\/([\w-]+)(?:\/(login|confirm))?$/.exec(req.url ?? '');
    if (!m) return callback(req, res);
    interaction(req, res, m[1], m[2]).catch((err: Error) => {
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
    async registerPublicClient(redirectUri) {
      const reg = await post('/reg', {
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      });
      return reg.client_id;
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
