import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingExecutor, startFlowNode, type FlowNode } from '../../support/flow-node.ts';
import { httpJson } from '../../support/http-raw.ts';
import { startTestIdp, type TestIdp } from '../../support/oidc-provider.ts';
import { realDbEnv } from '../../support/tools.ts';

/**
 * Decision 0113 amended (issue 29 point 3): a run records who started it. `POST /v1/runs` with a verified OAuth bearer
 * records the token's subject, client id and kind as `started_by`; the body never sets it; a refused bearer is 401 and
 * starts nothing; without a header the run starts as before and records no one.
 */
const PUBLIC_URL = 'http://127.0.0.1:9';
const RESOURCE = `${PUBLIC_URL}/mcp`;
let idp: TestIdp;
let node: FlowNode;
let drop: () => Promise<void>;

beforeAll(async () => {
  idp = await startTestIdp({ resources: [RESOURCE], accounts: { 'person-b': { scopes: ['mcp:read', 'mcp:write'] } } });
  const db = await realDbEnv();
  drop = db.drop;
  node = await startFlowNode({
    executor: recordingExecutor(),
    env: { ...db.env, SERVICE_PUBLIC_URL: PUBLIC_URL, SERVICE_OAUTH_ISSUER: idp.issuer },
  });
}, 60_000);
afterAll(async () => {
  await node?.stop();
  await drop?.();
  await idp?.close();
});

const now = () => Math.floor(Date.now() / 1000);
const tokenOf = (sub: string, extra: Record<string, unknown> = {}) =>
  idp.sign({
    iss: idp.issuer,
    aud: RESOURCE,
    sub,
    client_id: 'dash-app',
    scope: 'mcp:read mcp:write',
    exp: now() + 300,
    ...extra,
  });
const start = (body: Record<string, unknown>, token?: string) =>
  httpJson(
    `${node.url}/v1/runs`,
    'POST',
    { design_flow: 'mech_v1', project_id: 'p-started-by', goal: 'a bracket', ...body },
    token ? { authorization: `Bearer ${token}` } : {},
  );
const runCount = async () => (await httpJson(`${node.url}/v1/runs?project_id=p-started-by`, 'GET')).json.total;

const PERSON_B = { subject: 'person-b', client_id: 'dash-app', kind: 'person', verified: true, surface: 'http' };

describe('runs name who started them', () => {
  it('a run started with an OAuth bearer records the subject and client, in the start answer and the run view', async () => {
    const r = await start({}, await tokenOf('person-b'));
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json.started_by).toEqual(PERSON_B);
    expect(r.json.started_via).toBe('http');
    const view = await httpJson(`${node.url}/v1/runs/${r.json.id}`, 'GET');
    expect(view.json.started_by).toEqual(PERSON_B);
    const list = await httpJson(`${node.url}/v1/runs?project_id=p-started-by`, 'GET');
    expect(list.json.runs.find((x: { id: string }) => x.id === r.json.id).started_by).toEqual(PERSON_B);
  });

  it('hostile: a body claiming started_by is ignored, with a token and without one', async () => {
    const forged = { subject: 'mallory', client_id: 'evil', kind: 'person', verified: true, surface: 'mcp' };
    const withToken = await start({ started_by: forged, started_via: 'mcp' }, await tokenOf('person-b'));
    expect(withToken.status).toBe(201);
    expect(withToken.json.started_by).toEqual(PERSON_B);
    expect(withToken.json.started_via).toBe('http');
    const without = await start({ started_by: forged });
    expect(without.status).toBe(201);
    expect(without.json.started_by).toBeNull();
    expect(without.json.started_via).toBe('http');
  });

  it('hostile: an expired, forged or unknown bearer is 401 AUTH_REQUIRED and starts no run', async () => {
    const before = await runCount();
    const expired = await tokenOf('person-b', { exp: now() - 120 });
    const [h, p] = (await tokenOf('person-b')).split('.');
    const forged = `${h}.${p}.${Buffer.from('not the signature').toString('base64url')}`;
    for (const token of [expired, forged, 'not-a-token-this-gateway-knows']) {
      const r = await start({}, token);
      expect(r.status, token).toBe(401);
      expect(r.json.error.code).toBe('AUTH_REQUIRED');
    }
    expect(await runCount()).toBe(before);
  });

  it("a client's own token (client credentials) records kind client", async () => {
    const r = await start({}, await tokenOf('svc-bot', { client_id: 'svc-bot' }));
    expect(r.status).toBe(201);
    expect(r.json.started_by).toEqual({ ...PERSON_B, subject: 'svc-bot', client_id: 'svc-bot', kind: 'client' });
  });
});
