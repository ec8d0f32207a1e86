// bench:mcp, case (d): the cost of validating an OAuth access token per call (issue 29 point 5). One embedded process
// with both the shared key and an issuer (the test OpenID provider, in this process); the same tools/call measured on
// one connection with the shared key and with a JWT access token, alternately, in the same run; plus the verifier
// alone, in this process, on a cached JWKS.
import { spawnService } from '../../support/spawn.ts';
import { startTestIdp } from '../../support/oidc-provider.ts';
import { freePort } from '../../support/mcp-oauth.ts';
import { createTokenVerifier, oauthConfigOf } from '../../../gateway/auth/oauth.ts';
import { callOnce, MCP_HEADERS, mcpLoad, type McpLoadResult } from './mcp-load.ts';

export interface OAuthCaseResult {
  key: McpLoadResult;
  token: McpLoadResult;
  /** p50 with a token minus p50 with the shared key, ms (median over the alternating rounds). */
  addedP50ms: number;
  /** The verifier alone: p50 of one verify() on a cached JWKS, ms. */
  verifyP50ms: number;
}

const KEY = 'bench-shared-key-0123456789';

async function initialize(base: string, authorization: string): Promise<string> {
  const headers = { ...MCP_HEADERS, authorization };
  const init = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !session) throw new Error(`initialize failed: ${init.status} ${await init.text()}`);
  return session;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs case (d); `seconds` per measured round, three rounds of each credential, alternating. */
export async function runOAuthCase(seconds: number): Promise<OAuthCaseResult> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const idp = await startTestIdp({ resources: [`${base}/mcp`], accounts: {} });
  const svc = spawnService(['--port', String(port)], {
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_PUBLIC_URL: base,
    SERVICE_OAUTH_ISSUER: idp.issuer,
    SERVICE_MCP_API_KEY: KEY,
  });
  try {
    await svc.waitFor('mcp_http_ready', 120_000);
    const { token } = await idp.clientCredentialsToken({ resource: `${base}/mcp`, scope: 'mcp:read mcp:write' });
    const created = await fetch(`${base}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench-oauth' }),
    });
    const project = (await created.json()) as { id: string };
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'project.get', arguments: { project_id: project.id } },
    });
    const target = async (authorization: string) => {
      const headers = { ...MCP_HEADERS, authorization, 'mcp-session-id': await initialize(base, authorization) };
      await callOnce(`${base}/mcp`, body, headers); // also fills the node's JWKS cache
      return { url: `${base}/mcp`, body, headers };
    };
    const withKey = await target(`Bearer ${KEY}`);
    const withToken = await target(`Bearer ${token}`);
    await mcpLoad('(d) warm-up', { ...withKey, connections: 1, seconds: 2 });
    await mcpLoad('(d) warm-up', { ...withToken, connections: 1, seconds: 2 });
    const keys: McpLoadResult[] = [];
    const tokens: McpLoadResult[] = [];
    for (let round = 0; round < 3; round++) {
      keys.push(await mcpLoad('(d) embedded, shared key', { ...withKey, connections: 1, seconds }));
      tokens.push(await mcpLoad('(d) embedded, OAuth access token', { ...withToken, connections: 1, seconds }));
    }
    const byP50 = (rs: McpLoadResult[]) => [...rs].sort((a, b) => a.p50ms - b.p50ms)[1];
    const added = median(keys.map((k, i) => tokens[i].p50ms - k.p50ms));

    // The verifier alone, on the same token, JWKS cached after the first call.
    const config = oauthConfigOf({
      SERVICE_PUBLIC_URL: base,
      SERVICE_OAUTH_ISSUER: idp.issuer,
      SERVICE_OAUTH_AUDIENCE: undefined,
      SERVICE_OAUTH_SCOPES_CLAIM: 'scope',
    })!;
    const verifier = createTokenVerifier(config);
    await verifier.verify(token);
    const times: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const t0 = performance.now();
      await verifier.verify(token);
      times.push(performance.now() - t0);
    }
    return { key: byP50(keys), token: byP50(tokens), addedP50ms: added, verifyP50ms: median(times) };
  } finally {
    await svc.kill('SIGTERM');
    await idp.close();
  }
}
