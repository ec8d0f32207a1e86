import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

// POST /api/v1/assistant/request against the OpenAI-compatible wire server: the model proposes, deterministic code
// files the proposals as design changes, a person approves one, and the twin applies it (a new revision with the
// change reason). The model never writes.

const KEY = 'sk-assistant-0123456789';
const PROJECT = 'p-assistant';

describe('the assistant', () => {
  let t: TestNode;
  let model: WireServer;
  const post = async (p: string, body: unknown) => {
    const res = await fetch(`${t.url}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  const reply = (json: unknown) =>
    model.enqueue({ text: [JSON.stringify(json)], usage: { prompt_tokens: 300, completion_tokens: 40 } });

  beforeAll(async () => {
    model = await startOpenAIServer({ apiKey: KEY });
    t = await startTestNode({
      roles: 'gateway,harness,chat,tools,twin,adapter:twin,approvals,holds,projects',
      env: { SERVICE_ROUTE_CHAT: 'local-llm:llama3.1:8b', SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await model?.close();
    await t?.stop();
  });

  it('answers 503 naming what to configure while the chat role has no credential', async () => {
    const r = await post('/api/v1/assistant/request', { action: 'propose_changes', project_id: PROJECT, prompt: 'x' });
    expect(r.status).toBe(503);
    expect(r.json.error.message).toContain('POST /v1/harness/credentials');
    const cred = await post('/v1/harness/credentials', { provider: 'local-llm', api_key: KEY, base_url: model.url });
    expect(cred.status).toBe(201);
  });

  it('files the proposals as design changes; an approved one is applied by the twin with its reason', async () => {
    const motor = await call(t.node.broker, T.writeDefinition, {
      project_id: PROJECT,
      item_type: 'component_selection',
      name: 'Drive motor',
      properties: { torque_nm: 1.2 },
    });
    reply({
      proposals: [
        {
          target: motor.item_ref,
          title: 'Stronger motor',
          rationale: 'the arm stalls at 1.2 N m',
          changes: { torque_nm: 3 },
        },
        { target: 'CAD-NOWHERE-0000@1', title: 'Invented', rationale: 'x', changes: { a: 1 } },
      ],
    });
    const r = await post('/v1/assistant/request', {
      action: 'propose_changes',
      project_id: PROJECT,
      prompt: 'The arm stalls; fix the drive.',
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ status: 'completed', result: { proposals: [{ target: motor.item_ref }] } });
    expect(r.json.result.proposals).toHaveLength(1);
    expect(r.json.errors).toEqual([expect.stringContaining('CAD-NOWHERE-0000@1')]);
    // The model saw the item it may change.
    expect(JSON.stringify(model.last?.body.messages)).toContain(motor.item_ref);
    expect((await call(t.node.broker, T.getNode, { item_key: motor.item_key })).revision).toBe(1);

    const { change_id } = r.json.result.proposals[0];
    const decided = await post(`/api/v1/assistant/proposals/${change_id}/decide`, {
      change_id,
      decision: 'approve',
      reason: 'agreed',
      reviewer: 'ana',
    });
    expect(decided.status, JSON.stringify(decided.json)).toBe(200);
    const head = await call(t.node.broker, T.getNode, { item_key: motor.item_key });
    expect(head).toMatchObject({
      revision: 2,
      properties: { torque_nm: 3 },
      change_reason: 'the arm stalls at 1.2 N m',
    });
  });

  it('files nothing when the model does not answer the asked JSON, and refuses an unknown action', async () => {
    model.enqueue({ text: ['Sure! I would raise the torque.'] });
    const r = await post('/api/v1/assistant/request', { action: 'propose_changes', project_id: PROJECT, prompt: 'x' });
    expect(r.json).toMatchObject({ status: 'failed', result: null, errors: [expect.stringContaining('JSON')] });
    const bad = await post('/api/v1/assistant/request', { action: 'build_rocket', project_id: PROJECT });
    expect(bad.status).toBe(422);
    expect((await post('/api/v1/assistant/request', { project_id: PROJECT })).status).toBe(422);
  });
});
