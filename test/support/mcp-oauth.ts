import crypto from 'node:crypto';
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { TestIdp } from './oidc-provider.ts';

/** A free 127.0.0.1 port (the node's public URL must be known before it starts: it is the token audience). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/**
 * The MCP SDK's OAuthClientProvider for a test account: registers dynamically, and its redirect to the authorization
 * endpoint is driven by the test provider's login (`TestIdp.authorize`) instead of a browser; the code it gets back
 * is kept for `transport.finishAuth`.
 */
export class TestOAuthClient implements OAuthClientProvider {
  code?: string;
  private info?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier?: string;
  private readonly nonce = crypto.randomUUID();
  private readonly idp: TestIdp;
  private readonly account: string;

  constructor(idp: TestIdp, account: string) {
    this.idp = idp;
    this.account = account;
  }

  get redirectUrl() {
    return 'http://127.0.0.1/oauth/callback';
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: `test agent ${this.account}`,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.nonce;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    const back = await this.idp.authorize(url, this.account);
    if (back.searchParams.get('state') !== this.nonce) throw new Error(`state mismatch: ${back}`);
    const code = back.searchParams.get('code');
    if (!code) throw new Error(`no code in ${back}`);
    this.code = code;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  /** The access token the flow got. */
  get accessToken(): string {
    if (!this.saved) throw new Error('no token yet');
    return this.saved.access_token;
  }
}

/**
 * Connects the official SDK client to `<url>/mcp` as `account`: the first connect meets the 401, discovers, registers
 * and authorizes (UnauthorizedError after the redirect), `finishAuth` trades the code (PKCE) for a token, and the
 * second connect carries it.
 */
export async function connectWithOAuth(
  url: string,
  idp: TestIdp,
  account: string,
  opts: { capabilities?: ConstructorParameters<typeof Client>[1]; setup?: (client: Client) => void } = {},
): Promise<{ client: Client; auth: TestOAuthClient }> {
  const auth = new TestOAuthClient(idp, account);
  const endpoint = new URL(`${url}/mcp`);
  const first = new StreamableHTTPClientTransport(endpoint, { authProvider: auth });
  const probe = new Client({ name: `agent-${account}`, version: '1.0.0' });
  const refused = await probe.connect(first).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected the 401 flow, got ${String(refused)}`);
  await first.finishAuth(auth.code!);
  const client = new Client({ name: `agent-${account}`, version: '1.0.0' }, opts.capabilities);
  opts.setup?.(client);
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: auth }));
  return { client, auth };
}
