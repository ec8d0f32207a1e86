import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { httpJson } from '../../support/http-raw.ts';
import { useLocalModel } from '../../support/llm-servers/local-model.ts';
import { useTestNode } from '../../support/node.ts';

// Decision 0113 amended, end to end: a run started over HTTP with an approvals token (SERVICE_AUTH_TOKENS_PATH)
// records its principal, and the phase brain's model calls for that run (a local server speaking the OpenAI wire
// protocol) are ledger rows naming it: the usage summary filtered by that subject counts exactly them.
const TOKEN = 'tok-phase-brain-principal-0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'principal-'));
const tokens = path.join(dir, 'tokens.json');
fs.writeFileSync(tokens, JSON.stringify({ [TOKEN]: 'ops-person' }), { mode: 0o600 });

const t = useTestNode({
  roles: 'gateway,harness,tools,holds,projects,adapter:project,twin,adapter:twin,runs,gates,approvals',
  env: {
    SERVICE_PHASE_BRAIN: 'model',
    SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1',
    SERVICE_AUTH_TOKENS_PATH: tokens,
  },
});
const model = useLocalModel(t);

describe("a run's model calls name who started it", () => {
  it('the phase brain turn of a run started with a token: each ledger row names the token principal', async () => {
    const project = await model.project('principal run', 'phase_brain');
    const intent = { entity_type: 'intent', name: 'Intent: hook', statement: 'Hold a 2 kg coat.' };
    model.server.enqueue(
      { toolCalls: [{ id: 'i1', name: 'twin__record_engineering_entity', args: [JSON.stringify(intent)] }] },
      { text: ['I recorded the intent of the hook in the twin.'] },
    );
    const started = await httpJson(
      `${t.url}/v1/runs`,
      'POST',
      { design_flow: 'mech_v1', project_id: project, goal: 'a coat hook' },
      { authorization: `Bearer ${TOKEN}` },
    );
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    expect(started.json.started_by).toEqual({
      subject: 'ops-person',
      client_id: null,
      kind: null,
      verified: true,
      surface: 'http',
    });
    const runId = started.json.id as string;
    await expect
      .poll(async () => (await call(t.node.broker, R.get, { run_id: runId })).gate?.phase ?? null, {
        timeout: 30_000,
        interval: 50,
      })
      .toBe('intent');
    const usage = async (q: string) => (await httpJson(`${t.url}/v1/runs/usage/summary${q}`, 'GET')).json.usage;
    const mine = await usage('?subject=ops-person');
    expect(mine.calls).toBe(2);
    expect(mine.by_role).toHaveProperty('phase_brain');
    expect((await usage('')).calls).toBe(2);
    expect((await usage('?subject=someone-else')).calls).toBe(0);
    await call(t.node.broker, R.cancel, { run_id: runId, reason: 'test over' });
  });
});
