import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_ROLES, startApprovalsNode, type ApprovalsNode } from '../../support/approvals.ts';
import { testClock } from '../../support/holds.ts';
import { rawMcp } from '../../support/mcp-raw.ts';
import { connectWithOAuth, freePort } from '../../support/mcp-oauth.ts';
import { startTestIdp, type TestIdp } from '../../support/oidc-provider.ts';
import { realDbEnv } from '../../support/tools.ts';

// Issue 29 points 1-3: the tool server as an OAuth 2.1 resource server, driven by the official SDK client against a
// real OpenID provider in-process. The shared key keeps working beside it.
const KEY = 'shared-mcp-key-0123456789';
const ACCOUNTS = {
  'agent-a': { scopes: ['mcp:read', 'mcp:write'] },
  'person-b': { scopes: ['mcp:read', 'mcp:write', 'approvals:decide'] },
};
let t: ApprovalsNode;
let idp: TestIdp;
let stranger: TestIdp;
let drop: () => Promise<void>;
let resource: string;
let metadataUrl: string;

beforeAll(async () => {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  resource = `${publicUrl}/mcp`;
  metadataUrl = `${publicUrl}/.well-known/oauth-protected-resource`;
  idp = await startTestIdp({ resources: [resource, 'https://elsewhere.example.test/mcp'], accounts: ACCOUNTS });
  stranger = await startTestIdp({ resources: [resource], accounts: ACCOUNTS });
  const db = await realDbEnv();
  drop = db.drop;
  t = await startApprovalsNode({
    env: {
      ...db.env,
      SERVICE_PORT: String(port),
      SERVICE_PUBLIC_URL: publicUrl,
      SERVICE_OAUTH_ISSUER: idp.issuer,
      SERVICE_MCP_API_KEY: KEY,
    },
    roles: `${APPROVAL_ROLES},adapter:project`,
    clock: testClock(),
  });
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await drop?.();
  await idp?.close();
  await stranger?.close();
});

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
const now = () => Math.floor(Date.now() / 1000);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const challenge = (r: { headers: Headers }) => r.headers.get('www-authenticate') ?? '';

describe('discovery and the 401 challenge', () => {
  it('without a token /mcp is 401 naming the resource metadata, which names the issuer and the scopes', async () => {
    const r = await rawMcp(t.url).post(ping);
    expect(r.status).toBe(401);
    expect(challenge(r)).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const meta = await fetch(`${t.url}${path}`);
      expect(meta.status).toBe(200);
      expect(await meta.json()).toMatchObject({
        resource,
        authorization_servers: [idp.issuer],
        scopes_supported: ['mcp:read', 'mcp:write', 'approvals:decide'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('the shared key still works beside OAuth and /health says api_key+oauth', async () => {
    expect((await rawMcp(t.url, bearer(KEY)).post(ping)).status).toBe(200);
    expect(((await t.http('GET', '/health')).json as { auth: string }).auth).toBe('api_key+oauth');
  });

  it('the SDK client follows the 401: discovery, registration, authorization code with PKCE, then calls tools', async () => {
    const { client, auth } = await connectWithOAuth(t.url, idp, 'agent-a');
    expect(auth.tokens()?.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const tools = (await client.listTools()).tools.map((x) => x.name);
    expect(tools).toContain('project.list');
    expect(tools).toContain('project.create');
    const out = await client.callTool({ name: 'project.list', arguments: {} });
    expect(out.isError, JSON.stringify(out)).toBeFalsy();
    await client.close();
  });
});

describe('refused tokens: one test per case, each 401 invalid_token with the challenge', () => {
  const refusedWith = async (token: string) => {
    const r = await rawMcp(t.url, bearer(token)).post(ping);
    expect(r.status).toBe(401);
    expect(challenge(r)).toMatch(new RegExp(`^Bearer resource_metadata="${metadataUrl}", error="invalid_token"`));
    return r;
  };

  it('a token of this issuer for another audience', async () => {
    const other = await idp.clientCredentialsToken({
      resource: 'https://elsewhere.example.test/mcp',
      scope: 'mcp:read',
    });
    const r = await refusedWith(other.token);
    expect(r.json).toMatchObject({ error: 'auth_error', reason: 'mismatch' });
    expect(challenge(r)).toContain('aud');
  });

  it('an expired token (past the 30 s skew)', async () => {
    const token = await idp.sign({
      iss: idp.issuer,
      aud: resource,
      sub: 'agent-a',
      scope: 'mcp:read',
      exp: now() - 120,
    });
    expect(challenge(await refusedWith(token))).toContain('expired');
  });

  it('a token whose signature does not verify', async () => {
    const good = await idp.sign({
      iss: idp.issuer,
      aud: resource,
      sub: 'agent-a',
      scope: 'mcp:read',
      exp: now() + 300,
    });
    const [h, p] = good.split('.');
    const forged = (
      await stranger.sign({ iss: idp.issuer, aud: resource, sub: 'x', exp: now() + 300 }, { kid: idp.kid })
    )
      .split('.')
      .at(2);
    await refusedWith(`${h}.${p}.${forged}`);
  });

  it('a token from another issuer', async () => {
    const { token } = await stranger.clientCredentialsToken({ resource, scope: 'mcp:read mcp:write' });
    await refusedWith(token);
  });
});

describe('scopes decide what a token may do', () => {
  it('a read-only token lists only read-only tools, and calling a writing tool is 403 insufficient_scope mcp:write', async () => {
    const { token } = await idp.clientCredentialsToken({ resource, scope: 'mcp:read' });
    const mcp = rawMcp(t.url, bearer(token));
    const { sessionId } = await mcp.initialize();
    const s = { 'mcp-session-id': sessionId };
    const list = await mcp.post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, s);
    const names = (list.json.result.tools as { name: string; annotations?: { readOnlyHint?: boolean } }[]).map(
      (x) => x,
    );
    expect(names.map((x) => x.name)).toContain('project.list');
    expect(names.map((x) => x.name)).not.toContain('project.create');
    expect(names.every((x) => x.annotations?.readOnlyHint === true)).toBe(true);
    const call = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'project.create', arguments: { name: 'x' } },
    };
    const r = await mcp.post(call, s);
    expect(r.status).toBe(403);
    expect(challenge(r)).toBe(
      `Bearer resource_metadata="${metadataUrl}", error="insufficient_scope", scope="mcp:write"`,
    );
    expect(r.json).toMatchObject({
      id: 3,
      error: { code: -32007, data: { error: 'insufficient_scope', scope: 'mcp:write' } },
    });
    const ok = await mcp.post({ ...call, params: { name: 'project.list', arguments: {} } }, s);
    expect(ok.status).toBe(200);
  });

  it('the legacy SSE transport checks the same scopes: GET /mcp/sse?request= of a writing tool is 403', async () => {
    const { token } = await idp.clientCredentialsToken({ resource, scope: 'mcp:read' });
    const call = {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'project.create', arguments: { name: 'y' } },
    };
    const r = await fetch(`${t.url}/mcp/sse?request=${encodeURIComponent(JSON.stringify(call))}`, {
      headers: bearer(token),
    });
    expect(r.status).toBe(403);
    expect(challenge(r)).toContain('error="insufficient_scope", scope="mcp:write"');
    const batch = [call, { ...call, id: 5, params: { name: 'project.list', arguments: {} } }];
    const b = await rawMcp(t.url, bearer(token)).post(batch);
    expect(b.status).toBe(403);
  });

  it("a session belongs to its token's subject: another token does not find it", async () => {
    const a = await idp.clientCredentialsToken({ resource, scope: 'mcp:read' });
    const b = await idp.clientCredentialsToken({ resource, scope: 'mcp:read' });
    const { sessionId } = await rawMcp(t.url, bearer(a.token)).initialize();
    const r = await rawMcp(t.url, bearer(b.token)).post(ping, { 'mcp-session-id': sessionId });
    expect(r.status).toBe(404);
  });
});
