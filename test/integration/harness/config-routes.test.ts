import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { loadConfig } from '../../../brokers/config.ts';
import { startNode, type StartedNode } from '../../../brokers/launcher/node.ts';
import { HarnessConfigActions } from '../../../contracts/actions/harness-config.actions.ts';

// The /v1/harness/* routes through the real gateway and the harness actor (SPEC part 6, rules 10-11, Authentication
// rule 7): the admin token, the owner-only credentials file, no key in any answer or log line, 400 on a model that
// does not fit, routing from the file and the environment with its problems, /health model_routing, the fallback metric.

const ADMIN = 'admin-token-0123456789';
const KEY = 'sk-proj-SECRETSECRETSECRET-9z9z';
const OLLAMA_KEY = 'ollama-local-key-SECRET-7y7y';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-routes-'));
const credFile = path.join(dir, 'creds', 'credentials.json');
const routesFile = path.join(dir, 'routes.json');
const lines: string[] = [];
let node: StartedNode;
let url: string;

async function http(method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : null };
}
const admin = { 'X-Service-Admin-Token': ADMIN };

beforeAll(async () => {
  fs.writeFileSync(
    routesFile,
    JSON.stringify({ chat: 'anthropic:claude-sonnet-4-5', 'phase_brain:optics': 'ollama:llama3.1:8b', wizard: 'a:b' }),
  );
  const config = loadConfig({
    SERVICE_PORT: '0',
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_CREDENTIALS_PATH: credFile,
    SERVICE_HARNESS_ADMIN_TOKEN: ADMIN,
    SERVICE_MODEL_ROUTES_PATH: routesFile,
    SERVICE_ROUTE_GATE_CHECK: 'openai:gpt-4.1-mini',
    SERVICE_ROUTE_CLASSIFICATION: 'not-a-route',
    SERVICE_ROUTE_BOGUS_ROLE: 'openai:gpt-4o',
    SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1', // the local Ollama credential
  });
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  node = await startNode({ roles: 'gateway,harness', config, log: pino({ level: 'debug' }, sink) });
  url = `http://127.0.0.1:${node.gateway.address!.port}`;
});
afterAll(async () => {
  await node?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('harness credentials and the admin token', () => {
  it('refuses writes without the token (401) or with a wrong one (403)', async () => {
    const body = { provider: 'openai', api_key: KEY };
    const missing = await http('POST', '/v1/harness/credentials', body);
    expect(missing.status).toBe(401);
    expect(missing.json.error.code).toBe('AUTH_REQUIRED');
    const wrong = await http('POST', '/v1/harness/credentials', body, { 'X-Service-Admin-Token': 'nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.code).toBe('FORBIDDEN');
    const sel = await http('PUT', '/v1/harness/selection', { provider: 'openai', model: 'gpt-4o' });
    expect(sel.status).toBe(401);
    expect(fs.existsSync(credFile)).toBe(false);
  });

  it('stores a credential owner-only and answers it masked', async () => {
    const r = await http('POST', '/v1/harness/credentials', { provider: 'openai', api_key: KEY, label: 'ci' }, admin);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ provider: 'openai', label: 'ci', last4: '9z9z', status: 'healthy' });
    expect(r.text).not.toContain(KEY);
    expect(fs.statSync(credFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(credFile, 'utf8')).toContain(KEY);
    const local = { provider: 'ollama', api_key: OLLAMA_KEY, base_url: 'http://127.0.0.1:11434/v1' };
    expect((await http('POST', '/v1/harness/credentials', local, admin)).status).toBe(201);
  });

  it('a provider other than openai/anthropic needs its base_url (422); bad bodies are 4xx without the key', async () => {
    const r = await http('POST', '/v1/harness/credentials', { provider: 'vllm', api_key: KEY }, admin);
    expect(r.status).toBe(422);
    expect(r.json.error.message).toMatch(/base_url/);
    const bad = await http('POST', '/v1/harness/credentials', { provider: 'Bad Id', api_key: KEY, x: 1 }, admin);
    expect(bad.status).toBe(422);
    const raw = await fetch(`${url}/v1/harness/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...admin },
      body: `{"provider": "openai", "api_key": ${KEY}}`, // unquoted: the parser's message quotes a few characters only
    });
    expect(raw.status).toBe(400);
    expect(await raw.text()).not.toContain(KEY);
    for (const a of [r, bad]) expect(a.text).not.toContain(KEY);
  });

  it('lists providers: families, endpoints, configured, credentials masked', async () => {
    const r = await http('GET', '/v1/harness/providers');
    expect(r.status).toBe(200);
    expect(r.text).not.toContain(KEY);
    expect(r.text).not.toContain(OLLAMA_KEY);
    const by = Object.fromEntries(r.json.providers.map((p: { id: string }) => [p.id, p]));
    expect(by.openai).toMatchObject({ family: 'openai_compatible', configured: true, fallback_count: 0 });
    expect(by.anthropic).toMatchObject({ family: 'anthropic', configured: false, last_fallback: null });
    expect(by.ollama).toMatchObject({
      family: 'openai_compatible',
      base_url: 'http://127.0.0.1:11434/v1',
      first_party: false,
      configured: true,
    });
  });
});

describe('selection and routing', () => {
  it('400 when the model does not fit the family; a gateway is never judged; the selection is durable', async () => {
    const mismatch = await http(
      'PUT',
      '/v1/harness/selection',
      { provider: 'openai', model: 'claude-sonnet-4-5' },
      admin,
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.error.code).toBe('BAD_REQUEST');
    const anthropic = await http('PUT', '/v1/harness/selection', { provider: 'anthropic', model: 'gpt-4o' }, admin);
    expect(anthropic.status).toBe(400);
    const gateway = await http(
      'PUT',
      '/v1/harness/selection',
      { provider: 'ollama', model: 'claude-sonnet-4-5' },
      admin,
    );
    expect(gateway.status).toBe(200);
    const ok = await http('PUT', '/v1/harness/selection', { provider: 'openai', model: 'gpt-4o' }, admin);
    expect(ok.json).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
  });

  it('shows every role effective, from the file, the environment and the selection, with the problems', async () => {
    const r = await http('GET', '/v1/harness/routing');
    expect(r.status).toBe(200);
    const v = r.json;
    expect(v).toMatchObject({ default_provider: 'openai', default_model: 'gpt-4o', project_id: null });
    const role = (name: string) => v.routes.find((x: { role: string }) => x.role === name);
    expect(role('chat')).toMatchObject({ provider: 'anthropic', source: 'file', configured: false });
    expect(role('phase_brain:optics')).toMatchObject({ provider: 'ollama', model: 'llama3.1:8b', configured: true });
    expect(role('gate_check')).toMatchObject({ model: 'gpt-4.1-mini', source: 'env', configured: true });
    expect(role('summarisation')).toMatchObject({ model: 'gpt-4o', source: 'selection', configured: true });
    expect(role('classification')).toMatchObject({
      provider: null,
      error: expect.stringMatching(/SERVICE_ROUTE_CLASSIFICATION/),
    });
    const problems = v.problems.join('\n');
    expect(problems).toMatch(/wizard is not a role/);
    expect(problems).toMatch(/SERVICE_ROUTE_BOGUS_ROLE routes no role/);
    expect(problems).toMatch(/routing configuration error: the env route of classification/);
    expect(problems).toMatch(
      /chat routes to anthropic:claude-sonnet-4-5 \(file\), whose provider has no healthy credential/,
    );
  });

  it('project routes rank above the table; a mismatching project route is 400', async () => {
    const put = await http('PUT', '/v1/harness/routing/projects/p-1', { routes: { chat: 'openai:gpt-4.1' } }, admin);
    expect(put.status).toBe(200);
    const bad = await http('PUT', '/v1/harness/routing/projects/p-1', { routes: { chat: 'openai:claude-x' } }, admin);
    expect(bad.status).toBe(400);
    expect((await http('PUT', '/v1/harness/routing/projects/p-1', { routes: {} })).status).toBe(401);
    const v = (await http('GET', '/v1/harness/routing?project_id=p-1')).json;
    expect(v.routes.find((x: { role: string }) => x.role === 'chat')).toMatchObject({
      model: 'gpt-4.1',
      source: 'project',
    });
  });

  it('/health reports model_routing with its problems', async () => {
    const h = (await http('GET', '/health')).json;
    expect(h.model_routing.status).toBe('problems');
    expect(h.model_routing.problems.join('\n')).toMatch(/SERVICE_ROUTE_BOGUS_ROLE/);
  });

  it('a call route: refused with an environment failure naming what to configure, logged when resolved', async () => {
    const chat = await call(node.broker, HarnessConfigActions.resolveRoute, { role: 'chat' });
    expect(chat).toMatchObject({ outcome: 'failed', failure: { class: 'environment' } });
    if (chat.outcome === 'failed') expect(chat.failure.message).toMatch(/POST \/v1\/harness\/credentials.*anthropic/);
    const gate = await call(node.broker, HarnessConfigActions.resolveRoute, { role: 'gate_check', project_id: 'p-1' });
    expect(gate).toMatchObject({ outcome: 'ok', route: { provider: 'openai', model: 'gpt-4.1-mini', source: 'env' } });
    expect(lines.some((l) => l.includes('"event":"llm_route_resolved"') && l.includes('gpt-4.1-mini'))).toBe(true);
  });

  it('a mismatching explicit model falls back to the next source: harness_provider_fallback and the counter', async () => {
    const r = await call(node.broker, HarnessConfigActions.resolveRoute, {
      role: 'summarisation',
      explicit: { provider: 'anthropic', model: 'gpt-4o' },
    });
    expect(r).toMatchObject({ outcome: 'ok', route: { provider: 'openai', model: 'gpt-4o', source: 'selection' } });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(
      /service_harness_provider_fallback_total\{primary="anthropic:gpt-4o",fallback="openai:gpt-4o",role="summarisation",reason="model_mismatch"\} 1/,
    );
    const anthropic = (await http('GET', '/v1/harness/providers')).json.providers.find(
      (p: { id: string }) => p.id === 'anthropic',
    );
    expect(anthropic).toMatchObject({
      fallback_count: 1,
      last_fallback: { reason: 'model_mismatch', role: 'summarisation' },
    });
    const warn = lines.find((l) => l.includes('"event":"harness_provider_fallback"'));
    expect(JSON.parse(warn!).level).toBe(40);
  });

  it('a stored selection that no longer fits is ignored on read and reported', async () => {
    const db = await node.infra.db();
    await db.query("UPDATE harness_selection SET provider = 'anthropic', model = 'gpt-4o' WHERE id = 'default'");
    const v = (await http('GET', '/v1/harness/routing')).json;
    expect(v).toMatchObject({ default_provider: null, default_model: null });
    expect(v.problems.join('\n')).toMatch(/stored selection anthropic:gpt-4o is ignored/);
    const summarisation = v.routes.find((x: { role: string }) => x.role === 'summarisation');
    expect(summarisation).toMatchObject({ provider: null, error: expect.stringMatching(/no model for role/) });
    await http('PUT', '/v1/harness/selection', { provider: 'openai', model: 'gpt-4o' }, admin);
  });

  it('no key appears in any log line', () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) {
      expect(l).not.toContain(KEY);
      expect(l).not.toContain(OLLAMA_KEY);
    }
  });
});
