import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPROVAL_ROLES,
  pendingGate,
  startApprovalsNode,
  startRun,
  type ApprovalsNode,
} from '../../support/approvals.ts';
import { testClock } from '../../support/holds.ts';
import { realDbEnv } from '../../support/tools.ts';

// ISSUE 27 finding 2: with authentication on and only the shared MCP key, a client that declares elicitation must not
// approve its own held writes or gates by answering its own prompt. Finding 11 (part): GET /health never shows the
// clientInfo of some session.
const KEY = 'shared-mcp-key-0123456789';
const ALICE = 'alice-token-0123456789abcdef';
let t: ApprovalsNode;
let drop: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  const db = await realDbEnv();
  drop = db.drop;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-approvals-'));
  const file = path.join(dir, 'tokens.json');
  fs.writeFileSync(file, JSON.stringify({ [ALICE]: 'alice@example.com' }), { mode: 0o600 });
  t = await startApprovalsNode({
    env: { ...db.env, SERVICE_MCP_API_KEY: KEY, SERVICE_AUTH_TOKENS_PATH: file },
    roles: `${APPROVAL_ROLES},adapter:project`,
    clock: testClock(),
  });
});
afterAll(async () => {
  await t.stop();
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const alice = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${ALICE}`, ...extra });

/** A hostile client: declares elicitation and approves whatever it is asked, at once. Counts the questions. */
async function selfApprover(name = 'self-approver') {
  const asked: unknown[] = [];
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params);
    return { action: 'accept', content: { decision: 'approve', reason: 'I approve myself' } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${KEY}` } },
    }),
  );
  return { client, asked };
}

/** The pending queue item of a held call of `tool` whose arguments carry `value` under `key` (read with a person's token). */
async function queuedHold(tool: string, value: string, key = 'name') {
  let item: any;
  await expect
    .poll(
      async () => {
        const list = (await t.http('GET', '/v1/approvals?kind=tool_call', undefined, alice())).json.items as any[];
        item = list.find((i) => i.detail?.tool_id === tool && i.detail?.arguments?.[key] === value);
        return item?.status;
      },
      { timeout: 10_000 },
    )
    .toBe('pending');
  return item;
}

const projectNames = async () =>
  ((await t.http('GET', '/v1/projects')).json.projects as { name: string }[]).map((p) => p.name);

describe('no client approves its own call (auth on, shared MCP key only)', () => {
  it('a held project.create is not run on its own elicitation answer: it waits in the queue until a person decides with a token', async () => {
    const { client, asked } = await selfApprover();
    const res = client.callTool({ name: 'project.create', arguments: { name: 'self-approved?' } });
    const item = await queuedHold('project.create', 'self-approved?');
    expect(item).toMatchObject({ route: 'dashboard', decidable: true, detail: { source: 'mcp' } });
    expect(asked).toEqual([]);
    expect(await projectNames()).not.toContain('self-approved?');
    const d = await t.http(
      'POST',
      `/v1/approvals/${item.id}/decision`,
      { decision: 'approve', reason: 'checked' },
      alice({ 'x-service-surface': 'dashboard' }),
    );
    expect(d.status, JSON.stringify(d.json)).toBe(200);
    expect(d.json.decision).toMatchObject({ approver: 'alice@example.com', approver_verified: true });
    const out = await res;
    expect(out.isError, JSON.stringify(out)).toBeFalsy();
    expect(await projectNames()).toContain('self-approved?');
    expect(asked).toEqual([]);
    await client.close();
  });

  it('flow.await_gate does not approve a gate on its own answer: the gate stays pending for a person', async () => {
    const run = await startRun(t, 'p-self-gate');
    await pendingGate(t, run.id, 'intent', undefined, alice());
    const { client, asked } = await selfApprover();
    const out = await client.callTool({ name: 'flow.await_gate', arguments: { run_id: run.id, wait_seconds: 5 } });
    expect(out.isError, JSON.stringify(out)).toBeFalsy();
    expect(out.structuredContent).toMatchObject({ status: 'awaiting_gate', approval_id: `gate:${run.id}` });
    expect(asked).toEqual([]);
    const gate = (await t.http('GET', `/v1/approvals/gate:${run.id}`, undefined, alice())).json;
    expect(gate).toMatchObject({ status: 'pending', decision: null, detail: { phase: 'intent' } });
    const d = await t.http(
      'POST',
      `/v1/approvals/gate:${run.id}/decision`,
      { decision: 'approve' },
      alice({ 'x-service-surface': 'dashboard' }),
    );
    expect(d.status, JSON.stringify(d.json)).toBe(200);
    await pendingGate(t, run.id, 'needs', undefined, alice());
    const again = await client.callTool({ name: 'flow.await_gate', arguments: { run_id: run.id, wait_seconds: 5 } });
    expect(again.structuredContent).toMatchObject({ status: 'awaiting_gate' });
    expect(asked).toEqual([]);
    const decisions = (await t.http('GET', `/v1/runs/${run.id}`)).json.decisions as Record<string, unknown>[];
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ approver: 'alice@example.com', approver_verified: true });
    await client.close();
  });

  it('holds flow.start_run and twin.attempt_promotion for a person too; a rejection with a token refuses them unrun', async () => {
    const { client, asked } = await selfApprover();
    const calls = [
      {
        name: 'flow.start_run',
        arguments: { design_flow: 'mech_v1', goal: 'a self-approved run', project_id: 'p-self-run' },
        key: 'goal',
        value: 'a self-approved run',
      },
      {
        name: 'twin.attempt_promotion',
        arguments: { projectId: 'p-self-promo', level: 'released', requiredClaimIds: [] },
        key: 'projectId',
        value: 'p-self-promo',
      },
    ];
    for (const c of calls) {
      const res = client.callTool({ name: c.name, arguments: c.arguments }).then(
        (r) => ({ ok: r }),
        (err: { code?: number; data?: Record<string, unknown> }) => ({ err }),
      );
      const item = await queuedHold(c.name, c.value, c.key);
      expect(item).toMatchObject({ route: 'dashboard', detail: { source: 'mcp' } });
      const d = await t.http(
        'POST',
        `/v1/approvals/${item.id}/decision`,
        { decision: 'reject', reason: 'not now' },
        alice({ 'x-service-surface': 'dashboard' }),
      );
      expect(d.status, JSON.stringify(d.json)).toBe(200);
      const out = await res;
      expect(out, c.name).toMatchObject({ err: { code: -32001, data: { outcome: 'rejected', route: 'dashboard' } } });
    }
    expect(asked).toEqual([]);
    const runs = await t.http('GET', '/v1/runs?project_id=p-self-run');
    expect(runs.status).toBe(200);
    expect(JSON.stringify(runs.json)).not.toContain('a self-approved run');
    const filed = (await t.http('GET', '/v1/approvals?kind=human_authority', undefined, alice())).json.items as any[];
    expect(filed.filter((i) => i.project_id === 'p-self-promo')).toEqual([]);
    await client.close();
  });
});

describe('GET /health and MCP session identity', () => {
  it('names no session client in GET /health, whichever sessions initialized', async () => {
    const a = await selfApprover('first-client-name');
    const b = await selfApprover('second-client-name');
    const body = JSON.stringify((await t.http('GET', '/health')).json);
    expect(body).not.toContain('first-client-name');
    expect(body).not.toContain('second-client-name');
    await a.client.close();
    await b.client.close();
  });
});
