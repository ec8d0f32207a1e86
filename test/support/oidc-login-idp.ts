import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { errors } from 'oidc-provider';

/** A person who signs in through the login page: the ID token names them. */
export interface TestPerson {
  name: string;
  email: string;
}

export interface LoginIdp {
  /** `http://127.0.0.1:<port>`. */
  issuer: string;
  /** Registers a public client (no secret, PKCE) with one redirect URI, as an operator registers the dashboard. */
  registerPublicClient(redirectUri: string): Promise<string>;
  /** Registers a confidential client and gets it a client-credentials token (an agent acting for itself). */
  clientCredentialsToken(opts: { resource: string; scope: string }): Promise<{ token: string; clientId: string }>;
  close(): Promise<void>;
}

const SCOPES = ['mcp:read', 'mcp:write', 'approvals:decide'];

/**
 * An OpenID provider (oidc-provider v9) in-process for browser sign-in tests: its own development login page (a real
 * HTML form: login and password, then a consent button), accounts whose ID token carries `name` and `email`,
 * dynamic registration, PKCE, resource indicators issuing JWT access tokens for `resources`, client credentials.
 * The login form accepts any password; an unknown login is refused. (test/support/oidc-provider.ts has no login page:
 * its interactions complete by themselves for the tool server's tests.)
 */
export async function startLoginIdp(opts: {
  resources: string[];
  people: Record<string, TestPerson>;
}): Promise<LoginIdp> {
  const kid = `login-${crypto.randomUUID().slice(0, 8)}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    scopes: ['openid', 'profile', 'email', ...SCOPES],
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    // The ID token of a code flow carries the profile claims (the access token is for the service, not userinfo).
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, id: string) => {
      const p = opts.people[id];
      return p ? { accountId: id, claims: async () => ({ sub: id, name: p.name, email: p.email }) } : undefined;
    },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0] ?? opts.resources[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (!opts.resources.includes(resource)) throw new errors.InvalidTarget();
          return {
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    pkce: { required: () => true },
  });
  server.on('request', provider.callback());

  const post = async (path: string, body: unknown, auth?: string) => {
    const form = typeof body === 'string';
    const res = await fetch(`${issuer}${path}`, {
      method: 'POST',
      headers: {
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        ...(auth ? { authorization: auth } : {}),
      },
      body: form ? body : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, string>;
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  return {
    issuer,
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
      const tok = await post(
        '/token',
        new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
        basic,
      );
      return { token: tok.access_token, clientId: reg.client_id };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
