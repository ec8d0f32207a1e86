import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshot, seriousA11yViolations } from '../../support/browser.ts';
import { freePort } from '../../support/mcp-oauth.ts';
import { rawMcp } from '../../support/mcp-raw.ts';
import { startTestIdp, type TestIdp } from '../../support/oidc-provider.ts';
import { spawnService, type SpawnedService } from '../../support/spawn.ts';

/**
 * Issue 29 point 4 in Chromium (decisions 0120-0122): a person signs in to the dashboard through the issuer's own
 * login page (authorization code with PKCE, no client secret in the page), the shell names them, and their approval of
 * a write an MCP agent made with its own token is recorded with the agent as the caller and the person as the verified
 * approver.
 */
let idp: TestIdp;
let service: SpawnedService;
let browser: Browser;
let url: string;
let dataDir: string;
let dashboardClient: string;

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  idp = await startTestIdp({
    resources: [`${url}/mcp`],
    accounts: {
      'person-b': { scopes: ['mcp:read', 'approvals:decide'], name: 'Person B', email: 'b@example.test' },
    },
    loginForm: true,
  });
  dashboardClient = await idp.registerPublicClient(`${url}/auth/callback`);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sign-in-data-'));
  service = spawnService(['--port', String(port)], {
    SERVICE_DATA_DIR: dataDir,
    SERVICE_PUBLIC_URL: url,
    SERVICE_OAUTH_ISSUER: idp.issuer,
    SERVICE_OAUTH_DASHBOARD_CLIENT_ID: dashboardClient,
    SERVICE_APPROVAL_HOLD_SECONDS: '900',
  });
  // A first start prepares its database (initdb and every migration): a deadline, not a speed check.
  [, browser] = await Promise.all([service.waitFor('mcp_http_ready', 180_000), launchChromium()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  if (service && service.proc.exitCode === null && service.proc.signalCode === null) await service.kill('SIGKILL');
  await idp?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

const getJson = async (p: string, token: string) => {
  const res = await fetch(`${url}${p}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json()) as any };
};

describe('people sign in to the dashboard with the service issuer', () => {
  it("person B signs in, sees their name, approves agent A's held write: A is the caller, B the verified approver", async () => {
    // Agent A: a client acting for itself (client credentials) with mcp:write; its write is held for a person.
    const agent = await idp.clientCredentialsToken({ resource: `${url}/mcp`, scope: 'mcp:read mcp:write' });
    const mcp = rawMcp(url, { authorization: `Bearer ${agent.token}` });
    const { sessionId } = await mcp.initialize();
    const held = mcp.post(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'project.create', arguments: { name: 'made-by-agent-a' } },
      },
      { 'mcp-session-id': sessionId },
    );

    const { page, context, sent } = await openPage(browser, url);
    const tokenRequests: { url: string; body: string }[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().startsWith(`${idp.issuer}/token`))
        tokenRequests.push({ url: r.url(), body: r.postData() ?? '' });
    });
    await page.goto('/approvals');
    await page.getByTestId('signed-out').getByRole('button', { name: 'Sign in' }).click();
    // The issuer's own login page: a real form, then its consent page.
    await page.waitForURL((u) => u.href.startsWith(idp.issuer), { timeout: 30_000 });
    // An unknown login is refused on the provider's page and nothing is granted.
    await page.locator('input[name=login]').fill('nobody');
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 30_000 }).toContain('Unknown login');
    await page.locator('input[name=login]').fill('person-b');
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${url}/approvals`, { timeout: 30_000 });
    await expect
      .poll(() => page.getByTestId('signed-in').textContent(), { timeout: 30_000 })
      .toContain('Signed in as Person B');
    const signedInAt = sent.length;
    // PKCE from the page: the code went back with its verifier and no client secret exists.
    expect(tokenRequests).toHaveLength(1);
    const form = new URLSearchParams(tokenRequests[0].body);
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code_verifier')?.length).toBeGreaterThanOrEqual(43);
    expect(form.has('client_secret')).toBe(false);

    const token = await page.evaluate(
      () =>
        (JSON.parse(sessionStorage.getItem('service.auth.session') ?? '{}') as { access_token?: string }).access_token,
    );
    expect(token).toBeTruthy();
    let id = '';
    await expect
      .poll(
        async () => {
          const r = await getJson('/v1/approvals?kind=tool_call', token!);
          id = (r.json.items as any[] | undefined)?.find((i) => i.detail?.arguments?.name === 'made-by-agent-a')?.id;
          return id ?? '';
        },
        { timeout: 30_000 },
      )
      .not.toBe('');

    // A reload of a deep link keeps the person signed in (this tab's sessionStorage, decision 0121).
    await page.goto(`/approvals?id=${encodeURIComponent(id)}`);
    await expect.poll(() => page.getByTestId('signed-in').textContent(), { timeout: 30_000 }).toContain('Person B');
    const decide = page.getByRole('form', { name: /^Decide: / });
    expect(await decide.getByTestId('deciding-as').textContent()).toBe('Deciding as Person B (b@example.test)');
    await decide.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('decision-record').textContent(), { timeout: 60_000 })
      .toMatch(/Decided approve by person-b \(verified\) on dashboard/);
    // The history names the client the person decided through: the dashboard's public client.
    expect(await page.getByTestId('decision-record').textContent()).toContain(`through client ${dashboardClient}`);
    // Before sign-in the queue answered 401; every approvals request since carries the person's token.
    const approvals = sent.slice(signedInAt).filter((r) => r.url.startsWith(`${url}/v1/approvals`));
    expect(approvals.length).toBeGreaterThan(0);
    expect(approvals.every((r) => r.headers.authorization === `Bearer ${token}`)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-approved');

    // The held call goes on; the record names A as the caller and B as the verified approver.
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(answer.json.result?.isError, answer.text).toBeFalsy();
    const item = (await getJson(`/v1/approvals/${encodeURIComponent(id)}`, token!)).json;
    expect(item.requested_by).toBe(`${agent.clientId} (client, remote over http)`);
    expect(item.detail.caller.principal).toMatchObject({ subject: agent.clientId, kind: 'client' });
    expect(item.decision).toMatchObject({
      approver: 'person-b',
      approver_verified: true,
      surface: 'dashboard',
      client_id: dashboardClient,
    });

    // Sign-out forgets the token: the shell offers Sign in, the approvals answer 401.
    await page.getByTestId('signed-in').getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('signed-out').waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('service.auth.session'))).toBeNull();
    await context.close();
  }, 600_000);
});
