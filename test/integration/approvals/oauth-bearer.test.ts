import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordNode, startApprovalsNode, type ApprovalsNode } from '../../support/approvals.ts';
import { startTestIdp, type TestIdp } from '../../support/oidc-provider.ts';
import { personToken } from '../../support/oidc-person.ts';
import { realDbEnv } from '../../support/tools.ts';

/**
 * Issue 29 point 4 over HTTP (decision 0122): the approval routes accept an OAuth access token of the node's issuer
 * beside the token file. Deciding needs a person's token holding approvals:decide; the approver is its subject,
 * verified. Tokens come from a real OpenID provider (authorization code with PKCE, client credentials).
 */
const PUBLIC_URL = 'https://design.example.test';
const RESOURCE = `${PUBLIC_URL}/mcp`;
const FILE_TOKEN = 'carol-token-0123456789abcdef';
let idp: TestIdp;
let t: ApprovalsNode;
let drop: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  idp = await startTestIdp({
    resources: [RESOURCE, 'https://other.example.test/mcp'],
    accounts: { 'person-b': { scopes: ['mcp:read', 'approvals:decide'] }, 'reader-r': { scopes: ['mcp:read'] } },
  });
  const db = await realDbEnv();
  drop = db.drop;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oauth-approvals-'));
  const file = path.join(dir, 'tokens.json');
  fs.writeFileSync(file, JSON.stringify({ [FILE_TOKEN]: 'carol@example.com' }), { mode: 0o600 });
  t = await startApprovalsNode({
    env: {
      ...db.env,
      SERVICE_AUTH_TOKENS_PATH: file,
      SERVICE_PUBLIC_URL: PUBLIC_URL,
      SERVICE_OAUTH_ISSUER: idp.issuer,
      SERVICE_OAUTH_DASHBOARD_CLIENT_ID: 'dashboard-client',
    },
  });
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await drop?.();
  await idp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'x-service-surface': 'dashboard' });
const change = (name: string) =>
  recordNode(t, 'p-oauth', 'design_change', name, { status: 'pending' }).then((id) => `change:${id}`);
const decide = (id: string, token: string) =>
  t.http('POST', `/v1/approvals/${id}/decision`, { decision: 'approve', reason: 'ok' }, bearer(token));
const undecided = async (id: string) =>
  expect((await t.http('GET', `/v1/approvals/${id}`, undefined, bearer(FILE_TOKEN))).json.decision).toBeNull();

describe('approval routes with OAuth bearers (issue 29 point 4)', () => {
  it('refuses a person token without approvals:decide with 403 naming the scope, yet lets it read the queue', async () => {
    const id = await change('Reader may not decide');
    const { token } = await personToken(idp, { account: 'reader-r', resource: RESOURCE, scope: 'mcp:read' });
    expect((await t.http('GET', '/v1/approvals', undefined, bearer(token))).status).toBe(200);
    const r = await decide(id, token);
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: 'insufficient_scope', scope: 'approvals:decide', principal: 'reader-r', kind: 'person' },
    });
    await undecided(id);
  });

  it('refuses a client-credentials token with 403 even when its scopes name approvals:decide', async () => {
    const id = await change('A client may not decide');
    const { token, clientId } = await idp.clientCredentialsToken({
      resource: RESOURCE,
      scope: 'mcp:write approvals:decide',
    });
    const r = await decide(id, token);
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: 'FORBIDDEN', details: { kind: 'client', principal: clientId } });
    expect(r.json.error.message).toMatch(/never decides approvals/);
    await undecided(id);
  });

  it('refuses an expired token, one for another audience and a tampered one with 401 invalid_token', async () => {
    const id = await change('Refused tokens');
    const exp = Math.floor(Date.now() / 1000) - 600;
    const claims = { iss: idp.issuer, aud: RESOURCE, sub: 'person-b', scope: 'approvals:decide', client_id: 'x' };
    const expired = await idp.sign({ ...claims, exp });
    const other = await idp.sign({ ...claims, aud: 'https://other.example.test/mcp', exp: exp + 1200 });
    const good = await idp.sign({ ...claims, exp: exp + 1200 });
    const tampered = `${good.slice(0, good.lastIndexOf('.'))}.${'A'.repeat(342)}`;
    for (const token of [expired, other, tampered]) {
      for (const r of [await decide(id, token), await t.http('GET', '/v1/approvals', undefined, bearer(token))]) {
        expect(r.status).toBe(401);
        expect(r.json.error).toMatchObject({ code: 'AUTH_REQUIRED', details: { reason: 'invalid_token' } });
      }
    }
    expect((await decide(id, 'not-a-jwt-and-not-in-the-file')).json.error.details.reason).toBe('mismatch');
    await undecided(id);
  });

  it("records a person's subject as the verified approver; the token file keeps working beside OAuth", async () => {
    const id = await change('Person B decides');
    const { token, clientId } = await personToken(idp, {
      account: 'person-b',
      resource: RESOURCE,
      scope: 'openid approvals:decide',
    });
    const r = await decide(id, token);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.decision).toMatchObject({
      approver: 'person-b',
      approver_verified: true,
      surface: 'dashboard',
      client_id: clientId,
    });
    // The client is kept with the record: the item read back later names it too.
    const stored = (await t.http('GET', `/v1/approvals/${id}`, undefined, bearer(FILE_TOKEN))).json.decision;
    expect(stored).toMatchObject({ approver: 'person-b', client_id: clientId });
    const other = await change('Carol decides');
    const carol = (await decide(other, FILE_TOKEN)).json.decision;
    expect(carol).toMatchObject({ approver: 'carol@example.com', approver_verified: true });
    // A token of the file names no OAuth client.
    expect(carol.client_id ?? null).toBeNull();
  });

  it('answers WWW-Authenticate as the tool server does: resource_metadata, invalid_token, insufficient_scope', async () => {
    const id = await change('Challenges');
    const metadata = `resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource"`;
    const send = (method: string, p: string, headers: Record<string, string>) =>
      fetch(`${t.url}${p}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(method === 'POST' ? { body: JSON.stringify({ decision: 'approve', reason: 'ok' }) } : {}),
      });
    const decision = `/v1/approvals/${id}/decision`;
    // No token: the metadata URL alone, on a read and on a decision.
    for (const r of [await send('GET', '/v1/approvals', {}), await send('POST', decision, {})]) {
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe(`Bearer ${metadata}`);
    }
    // A refused token (expired JWT, or a token nobody knows): invalid_token.
    const exp = Math.floor(Date.now() / 1000) - 600;
    const expired = await idp.sign({ iss: idp.issuer, aud: RESOURCE, sub: 'person-b', exp, client_id: 'x' });
    for (const token of [expired, 'not-a-jwt-and-not-in-the-file']) {
      const r = await send('POST', decision, bearer(token));
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer ${metadata}, error="invalid_token"`));
    }
    // A person's token without approvals:decide: 403 naming the scope.
    const { token } = await personToken(idp, { account: 'reader-r', resource: RESOURCE, scope: 'mcp:read' });
    const r = await send('POST', decision, bearer(token));
    expect(r.status).toBe(403);
    expect(r.headers.get('www-authenticate')).toBe(
      `Bearer ${metadata}, error="insufficient_scope", scope="approvals:decide"`,
    );
    // A refusal that is not about the token (a bad surface header) carries no challenge.
    const bad = await send('POST', decision, { ...bearer(FILE_TOKEN), 'x-service-surface': 'fax' });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('www-authenticate')).toBeNull();
    await undecided(id);
  });

  it('answers the dashboard its sign-in settings: issuer, public client id, scopes, resource', async () => {
    const r = await t.http('GET', '/v1/auth/config');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      sign_in: true,
      issuer: idp.issuer,
      client_id: 'dashboard-client',
      scopes: ['openid', 'profile', 'email', 'approvals:decide'],
      resource: RESOURCE,
      callback_path: '/auth/callback',
    });
  });
});
