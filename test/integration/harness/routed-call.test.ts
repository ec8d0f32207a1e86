import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { loadConfig } from '../../../brokers/config.ts';
import { startNode, type StartedNode } from '../../../brokers/launcher/node.ts';
import { HarnessCallsActions } from '../../../contracts/actions/harness-calls.actions.ts';
import type { HarnessCallResult } from '../../../contracts/harness-calls.ts';
import { startAnthropicServer } from '../../support/llm-servers/anthropic.ts';
import { ASK } from '../../support/llm-servers/families.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { ScriptedReply, WireServer } from '../../support/llm-servers/wire-server.ts';

// harness.call through a real node (gateway, harness, runs) against the local wire servers, reached by the SDKs as
// real endpoints: the route of rule 11, the pinned credential, 401 -> the next credential and the first marked dead,
// 429 -> rotation without a dead mark, a failing route -> fallback (rule 10), each attempt recorded once.

const OPENAI_GOOD = 'sk-openai-GOOD-0123456789abcd';
const OPENAI_BAD = 'sk-openai-REVOKED-0123456789';
const ANTHROPIC_GOOD = 'sk-ant-GOOD-0123456789abcdef';
const VLLM_KEYS = ['vllm-key-ONE-0123456789', 'vllm-key-TWO-0123456789'];
const GATEWAY_KEYS = ['gw-key-REVOKED-A-012345', 'gw-key-REVOKED-B-012345', 'gw-key-REVOKED-C-012345'];
const ALL_KEYS = [OPENAI_GOOD, OPENAI_BAD, ANTHROPIC_GOOD, ...VLLM_KEYS, ...GATEWAY_KEYS];
const OK: ScriptedReply = { text: ['Sunny.'], usage: { prompt_tokens: 120, completion_tokens: 4 } };

const lines: string[] = [];
const results: HarnessCallResult[] = [];
let node: StartedNode;
let url: string;
let openai: WireServer;
let vllm: WireServer;
let anthropic: WireServer;

async function http(method: string, p: string, body?: unknown) {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : null };
}

async function harnessCall(params: Record<string, unknown>): Promise<HarnessCallResult> {
  const r = await call(node.broker, HarnessCallsActions.call, { messages: ASK, ...params } as never);
  results.push(r);
  return r;
}

const credentialsOf = async (provider: string) =>
  (await http('GET', '/v1/harness/providers')).json.providers.find((p: { id: string }) => p.id === provider);
const bearer = (s: WireServer, i: number) => s.requests[i]?.headers.authorization;

beforeAll(async () => {
  openai = await startOpenAIServer({ apiKey: OPENAI_GOOD });
  vllm = await startOpenAIServer();
  anthropic = await startAnthropicServer({ apiKey: ANTHROPIC_GOOD });
  const config = loadConfig({
    SERVICE_PORT: '0',
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_ROUTE_CHAT: 'openai:gpt-4.1',
    SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1', // the local wire servers
  });
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  node = await startNode({ roles: 'gateway,harness,runs', config, log: pino({ level: 'info' }, sink) });
  url = `http://127.0.0.1:${node.gateway.address!.port}`;
  const creds = [
    { provider: 'openai', api_key: OPENAI_BAD, base_url: openai.url, label: 'revoked' },
    { provider: 'openai', api_key: OPENAI_GOOD, base_url: openai.url, label: 'good' },
    { provider: 'anthropic', api_key: ANTHROPIC_GOOD, base_url: anthropic.url },
    ...VLLM_KEYS.map((api_key) => ({ provider: 'vllm', api_key, base_url: vllm.url })),
    // a gateway in front of the OpenAI-compatible server whose keys were all revoked
    ...GATEWAY_KEYS.map((api_key) => ({ provider: 'gw', api_key, base_url: openai.url })),
  ];
  for (const c of creds) expect((await http('POST', '/v1/harness/credentials', c)).status).toBe(201);
  const sel = await http('PUT', '/v1/harness/selection', { provider: 'anthropic', model: 'claude-sonnet-5-5' });
  expect(sel.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await node?.stop();
  await Promise.all([openai, vllm, anthropic].map((s) => s?.close()));
});

describe('harness.call: the route', () => {
  it('serves a role by rule 11: the selection, then a per-call route above it', async () => {
    anthropic.enqueue(OK);
    const sel = await harnessCall({ role: 'summarisation', conversation_id: 'conv-1' });
    expect(sel).toMatchObject({
      outcome: 'ok',
      completion: { text: 'Sunny.' },
      route: { provider: 'anthropic', model: 'claude-sonnet-5-5', source: 'selection', fallback: null },
    });
    expect(anthropic.last?.body.model).toBe('claude-sonnet-5-5');

    vllm.enqueue(OK);
    const explicit = await harnessCall({ role: 'summarisation', provider: 'vllm', model: 'qwen3:8b' });
    expect(explicit).toMatchObject({
      outcome: 'ok',
      route: { provider: 'vllm', model: 'qwen3:8b', source: 'explicit' },
    });
    expect(vllm.last?.body.model).toBe('qwen3:8b');
    expect(lines.some((l) => l.includes('"event":"llm_route_resolved"') && l.includes('qwen3:8b'))).toBe(true);
  });

  it('a provider with no credential is the environment failure naming what to configure; nothing is sent', async () => {
    const r = await harnessCall({ role: 'chat', provider: 'ollama', model: 'llama3.1:8b' });
    expect(r).toMatchObject({ outcome: 'failed', record_id: null, attempts: [], failure: { class: 'environment' } });
    if (r.outcome === 'failed') expect(r.failure.message).toMatch(/POST \/v1\/harness\/credentials.*ollama/);
  });

  it('provider without model is refused as bad input', async () => {
    await expect(
      call(node.broker, HarnessCallsActions.call, { role: 'chat', provider: 'openai', messages: ASK } as never),
    ).rejects.toMatchObject({ type: 'VALIDATION_FAILED' });
  });
  it('its callers wait longer than the bus default (several attempts, each up to its provider timeouts)', () => {
    const list = node.broker.registry.getActionList({ onlyLocal: true, withEndpoints: false }) as {
      name: string;
      action?: { timeout?: number };
    }[];
    const timeout = list.find((a) => a.name === HarnessCallsActions.call.action)?.action?.timeout;
    expect(timeout).toBeGreaterThan(node.infra.config.SERVICE_REQUEST_TIMEOUT_MS);
  });
});

describe('harness.call: credentials', () => {
  it('401 on the first credential: the second serves the call, the first is marked dead, the run stays pinned', async () => {
    openai.enqueue(OK);
    const r = await harnessCall({ role: 'chat', run_id: 'run-401' });
    expect(r).toMatchObject({ outcome: 'ok', route: { provider: 'openai', model: 'gpt-4.1', source: 'env' } });
    if (r.outcome !== 'ok') return;
    expect(r.attempts.map((a) => [a.outcome, a.failure_class])).toEqual([
      ['failed', 'environment'],
      ['ok', null],
    ]);
    expect(bearer(openai, 0)).toBe(`Bearer ${OPENAI_BAD}`);
    expect(bearer(openai, 1)).toBe(`Bearer ${OPENAI_GOOD}`);
    const [first, second] = r.attempts;
    expect(first!.record_id).not.toBe(second!.record_id);
    expect(r.route.credential_id).toBe(second!.credential_id);

    const p = await credentialsOf('openai');
    const status = Object.fromEntries(p.credentials.map((c: { id: string; status: string }) => [c.id, c.status]));
    expect(status).toEqual({ [first!.credential_id]: 'dead', [second!.credential_id]: 'healthy' });
    expect(p.configured).toBe(true);

    openai.enqueue(OK);
    const again = await harnessCall({ role: 'chat', run_id: 'run-401' });
    expect(again).toMatchObject({ outcome: 'ok', attempts: [{ credential_id: second!.credential_id }] });
  });

  it('429 rotates to the next credential without marking it dead; the run moves to the new one', async () => {
    vllm.enqueue({ fault: { status: 429, type: 'rate_limit_error', retryAfter: '30' } }, OK);
    const r = await harnessCall({ role: 'chat', provider: 'vllm', model: 'qwen3:8b', run_id: 'run-429' });
    expect(r.outcome).toBe('ok');
    const [limited, served] = r.attempts;
    expect(limited).toMatchObject({ outcome: 'failed', failure_class: 'transient' });
    expect(served).toMatchObject({ outcome: 'ok' });
    expect(served!.credential_id).not.toBe(limited!.credential_id);
    const p = await credentialsOf('vllm');
    expect(p.credentials.map((c: { status: string }) => c.status)).toEqual(['healthy', 'healthy']);

    vllm.enqueue(OK);
    const again = await harnessCall({ role: 'chat', provider: 'vllm', model: 'qwen3:8b', run_id: 'run-429' });
    expect(again.attempts.map((a) => a.credential_id)).toEqual([served!.credential_id]);
  });
});

describe('harness.call: fallback (rule 10)', () => {
  it('a 500 on the primary route falls back to the next configured source, logged and counted', async () => {
    openai.enqueue({ fault: { status: 500, type: 'server_error' } });
    anthropic.enqueue(OK);
    const r = await harnessCall({ role: 'chat', run_id: 'run-500', phase: 'design' });
    expect(r).toMatchObject({
      outcome: 'ok',
      route: { provider: 'anthropic', model: 'claude-sonnet-5-5', source: 'selection', fallback: 'call_failed' },
      attempts: [
        { provider: 'openai', outcome: 'failed', failure_class: 'transient' },
        { provider: 'anthropic', outcome: 'ok' },
      ],
    });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(
      /service_harness_provider_fallback_total\{primary="openai:gpt-4\.1",fallback="anthropic:claude-sonnet-5-5",role="chat",reason="call_failed"\} 1/,
    );
    const log = lines.map((l) => JSON.parse(l)).find((l) => l.event === 'harness_provider_fallback');
    expect(log).toMatchObject({ level: 40, reason: 'call_failed', role: 'chat', primary: 'openai:gpt-4.1' });
    expect(await credentialsOf('openai')).toMatchObject({
      fallback_count: 1,
      last_fallback: { reason: 'call_failed', fallback: 'anthropic:claude-sonnet-5-5' },
    });
  });

  it('a model the provider does not serve falls back as capability_unsupported (info level)', async () => {
    vllm.enqueue({ fault: { status: 404, type: 'not_found_error', message: 'model no-such-model not found' } });
    openai.enqueue(OK);
    const r = await harnessCall({ role: 'chat', provider: 'vllm', model: 'no-such-model', run_id: 'run-404' });
    expect(r).toMatchObject({
      outcome: 'ok',
      route: { provider: 'openai', model: 'gpt-4.1', source: 'env', fallback: 'capability_unsupported' },
    });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(
      /service_harness_provider_fallback_total\{primary="vllm:no-such-model",fallback="openai:gpt-4\.1",role="chat",reason="capability_unsupported"\} 1/,
    );
    const log = lines
      .map((l) => JSON.parse(l))
      .find((l) => l.event === 'harness_provider_fallback' && l.reason === 'capability_unsupported');
    expect(log.level).toBe(30);
  });

  it('every route failing: the last classified failure and its record, each route tried once', async () => {
    openai.enqueue({ fault: { status: 503, type: 'server_error' } });
    anthropic.enqueue({ fault: { status: 529, type: 'overloaded_error' } });
    const r = await harnessCall({ role: 'chat', run_id: 'run-down' });
    expect(r).toMatchObject({ outcome: 'failed', failure: { class: 'transient', status: 529, retryable: true } });
    expect(r.attempts.map((a) => a.provider)).toEqual(['openai', 'anthropic']);
    expect(r.record_id).toBe(r.attempts[1]!.record_id);
  });
});

describe('harness.call: a refused credential retried once', () => {
  it('401 on the retry too: both marked dead, no third try on that provider, the role falls back', async () => {
    const before = openai.requests.length;
    openai.enqueue(OK);
    const r = await harnessCall({ role: 'chat', provider: 'gw', model: 'gpt-4.1-mini', run_id: 'run-revoked' });
    expect(r).toMatchObject({ outcome: 'ok', route: { provider: 'openai', source: 'env', fallback: 'call_failed' } });
    expect(r.attempts.map((a) => [a.provider, a.failure_class])).toEqual([
      ['gw', 'environment'],
      ['gw', 'environment'],
      ['openai', null],
    ]);
    expect(openai.requests.slice(before).map((q) => q.headers.authorization)).toEqual([
      `Bearer ${GATEWAY_KEYS[0]}`,
      `Bearer ${GATEWAY_KEYS[1]}`,
      `Bearer ${OPENAI_GOOD}`,
    ]);
    const gw = await credentialsOf('gw');
    expect(gw.credentials.map((c: { status: string }) => c.status)).toEqual(['dead', 'dead', 'healthy']);
  });
});

describe('harness.call: accounting and keys', () => {
  it('the ledger holds each attempt once, under its own id', async () => {
    const attempts = results.flatMap((r) => r.attempts);
    const ids = attempts.map((a) => a.record_id);
    expect(new Set(ids).size).toBe(ids.length);
    const summary = (await http('GET', '/v1/runs/usage/summary?window_hours=1')).json;
    expect(summary.usage.calls).toBe(attempts.length);
    const failed = attempts.filter((a) => a.outcome === 'failed').length;
    expect(failed).toBeGreaterThan(0);
    const db = await node.infra.db();
    const rows = await db.query<{ n: number; ids: number; failed: number }>(
      "SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids, count(*) FILTER (WHERE outcome = 'failed')::int AS failed FROM harness_llm_calls",
    );
    expect(rows.rows[0]).toEqual({ n: attempts.length, ids: attempts.length, failed });
  });

  it('no key travels in an answer or appears in a log line', () => {
    const answers = JSON.stringify(results);
    for (const k of ALL_KEYS) {
      expect(answers).not.toContain(k);
      for (const l of lines) expect(l).not.toContain(k);
    }
  });
});
