import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HarnessConfigActions as HC } from '../../../contracts/actions/harness-config.actions.ts';
import { GatesActions } from '../../../contracts/actions/runs.actions.ts';
import { postJson } from '../../support/http-raw.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { useTestNode } from '../../support/node.ts';

// gates.evaluate on a real node (gates, twin, harness) with a local server speaking the OpenAI wire protocol as the
// gate_check model. Routes are per project: one project routes gate_check to the local model, the other has none.
const t = useTestNode({ roles: 'gateway,harness,tools,projects,twin,adapter:twin,gates' });
const KEY = 'sk-local-test';
let server: WireServer;

beforeAll(async () => {
  server = await startOpenAIServer({ apiKey: KEY });
  await call(t.node.broker, HC.addCredential, { provider: 'local-llm', api_key: KEY, base_url: server.url });
});
afterAll(() => server?.close());

async function project(routed: boolean) {
  const id = (await postJson(`${t.url}/v1/projects`, { name: `gate ${crypto.randomUUID()}` })).body.id as string;
  if (routed)
    await call(t.node.broker, HC.setProjectRoutes, { project_id: id, routes: { gate_check: 'local-llm:llama3.1:8b' } });
  return id;
}

/** A gate of a run that recorded nothing: the deterministic check finds the decision missing. */
const evaluate = (projectId: string) =>
  call(t.node.broker, GatesActions.evaluate, {
    run_id: `run_${crypto.randomUUID()}`,
    project_id: projectId,
    phase: 'firmware',
    attempt: 1,
    started_at: new Date(0).toISOString(),
    required_deliverables: ['design_decision'],
    enforce_deliverables: true,
    enforce_constraints: false,
    objective: 'Control loop, tasks, pin map and drivers.',
    criteria: ['pin map recorded'],
    summary: 'firmware planned',
  });

const MISSING = {
  kind: 'missing_deliverable',
  severity: 'error',
  message: 'no design_decision was recorded in phase firmware',
};

describe('the gate_check model', () => {
  it('is not called without a gate_check route: the deterministic findings alone', async () => {
    const asked = server.requests.length;
    const g = await evaluate(await project(false));
    expect(g).toEqual({ findings: [MISSING], ready: false });
    expect(server.requests.length).toBe(asked);
  });

  it('adds its findings tagged model, capped at warning, after the deterministic ones, which stay as they are', async () => {
    const from = server.requests.length;
    const answer = {
      findings: [
        { kind: 'other', severity: 'error', message: 'The summary does not show the pin map criterion as met.' },
        { kind: 'ungrounded', severity: 'info', message: 'No driver list is named.' },
      ],
    };
    server.enqueue({ text: ['```json\n', JSON.stringify(answer), '\n```'] });
    const g = await evaluate(await project(true));
    expect(g.ready).toBe(false);
    expect(g.findings).toEqual([
      MISSING,
      { ...answer.findings[0], severity: 'warning', source: 'model' },
      { ...answer.findings[1], source: 'model' },
    ]);
    const sent = JSON.stringify(server.requests[from]!.body);
    expect(sent).toContain('pin map recorded');
    expect(sent).toContain('no design_decision was recorded in phase firmware');
  });

  it('ignores an answer that is not the findings JSON (never a failure of the gate)', async () => {
    const id = await project(true);
    server.enqueue({ text: ['Looks fine to me!'] });
    expect(await evaluate(id)).toEqual({ findings: [MISSING], ready: false });
    server.enqueue({ text: ['{"findings": [{"kind": "vibes", "message": 7}]}'] });
    expect(await evaluate(id)).toEqual({ findings: [MISSING], ready: false });
    server.enqueue({ fault: { status: 400, message: 'bad request' } });
    expect(await evaluate(id)).toEqual({ findings: [MISSING], ready: false });
  });
});
