import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { MemoryActions } from '../../../contracts/actions/memory.actions.ts';
import { SessionsActions } from '../../../contracts/actions/sessions.actions.ts';
import type { GatewayDeps } from '../../../gateway/deps.ts';
import { registerErrorHandling } from '../../../gateway/plugins/errors.ts';
import { memoryRoutes } from '../../../gateway/routes/memory.routes.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { okData, callTool } from '../../support/tools.ts';

// POST /v1/memory/consolidate (issue 16): the memory actor over a real node, the summarisation model a local
// OpenAI-compatible wire server; the route on a small Fastify app (the gateway's compilers and error handling).

const KEY = 'sk-memory-test-0123456789';
const USAGE = { prompt_tokens: 300, completion_tokens: 80 };
const ROLES = 'gateway,harness,sessions,memory,adapter:memory,tools';

/** The route alone, on the gateway's validator, serialiser and error body, calling actors through `t`'s broker. */
async function routeApp(t: TestNode): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, createRootLogger({ level: 'silent' }));
  await app.register(memoryRoutes({ caller: t.node.broker } as Pick<GatewayDeps, 'caller'> as GatewayDeps), {
    prefix: '/v1/memory',
  });
  return app;
}

/** A session of `project` with its events, completed with a summary. */
async function capture(t: TestNode, project: string, title: string, events: [string, string, string?][]) {
  const b = t.node.broker;
  const s = await call(b, SessionsActions.start, { title, project_id: project });
  for (const [kind, message, theme] of events) {
    await call(b, SessionsActions.logEvent, {
      session_id: s.id,
      kind: kind as 'insight',
      message,
      data: theme ? { theme } : {},
    });
  }
  await call(b, SessionsActions.complete, { session_id: s.id, summary: `${title}: done` });
  return s.id;
}

const consolidated = async (t: TestNode, project_id: string) =>
  (await call(t.node.broker, MemoryActions.insights, { project_id })).consolidated ?? [];

const failure = (p: Promise<unknown>) =>
  p.then(
    (v) => {
      throw new Error(`expected a failure, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e as ActorError,
  );

describe('memory consolidation on the summarisation route', () => {
  let t: TestNode;
  let model: WireServer;
  let app: FastifyInstance;
  const project = '6f1c0c1e-0000-4000-8000-00000000a001';
  let bracket: string;
  let power: string;

  beforeAll(async () => {
    model = await startOpenAIServer({ apiKey: KEY });
    t = await startTestNode({
      roles: ROLES,
      env: { SERVICE_ROUTE_SUMMARISATION: 'local-llm:llama3.1:8b', SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' },
    });
    const cred = await fetch(`${t.url}/v1/harness/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'local-llm', api_key: KEY, base_url: model.url }),
    });
    expect(cred.status).toBe(201);
    app = await routeApp(t);
    bracket = await capture(t, project, 'Motor bracket fatigue', [
      ['note', 'Meshed with 0.5 mm tetrahedra'],
      ['insight', 'Fillet radius below 2 mm concentrates stress at the root', 'mechanical_validation'],
    ]);
    power = await capture(t, project, 'Flight controller power', [
      ['lesson', 'A buck converter beats an LDO when the drop exceeds 3 V', 'power_analysis'],
    ]);
  });
  afterAll(async () => {
    await app?.close();
    await model?.close();
    await t?.stop();
  });

  it('a project with no sessions: an empty answer, and no model request', async () => {
    const before = model.requests.length;
    const res = await app.inject({
      method: 'POST',
      url: '/v1/memory/consolidate',
      payload: { projectId: '6f1c0c1e-0000-4000-8000-00000000a0ff' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ mode: 'on_demand', fetchedCount: 0, synthesizedCount: 0, insights: [] });
    expect(model.requests.length).toBe(before);
  });

  it('a model answer that is not JSON, or names a source it was not given: SERVICE_UNAVAILABLE (data), nothing written', async () => {
    model.enqueue({ text: ['Here are some insights: fillets matter.'], usage: USAGE });
    const notJson = await failure(call(t.node.broker, MemoryActions.consolidate, { projectId: project }));
    expect(notJson).toBeInstanceOf(ActorError);
    expect(notJson).toMatchObject({ type: 'SERVICE_UNAVAILABLE', data: { failure_class: 'data' } });
    expect(notJson.message).toContain('not JSON');

    const invented = [{ theme: 'misc', text: 'x', confidence: 'low', importance: 0.5, sources: ['S1', 'S9.E4'] }];
    model.enqueue({ text: [JSON.stringify(invented)], usage: USAGE });
    const res = await app.inject({ method: 'POST', url: '/v1/memory/consolidate', payload: { projectId: project } });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { failure_class: 'data' } });
    expect(res.json().error.message).toContain('sources that were not given: S9.E4');
    expect(await consolidated(t, project)).toEqual([]);
  });

  it('writes the insights with their tiers and sources; memory.insights and the list_insights tool return them', async () => {
    const before = model.requests.length;
    const answer = [
      {
        theme: 'mechanical_validation',
        text: 'Keep bracket fillets at 2 mm or more: smaller radii concentrate stress at the root.',
        confidence: 'high',
        importance: 0.9,
        sources: ['S2', 'S2.E2'],
      },
      {
        theme: 'power_analysis',
        text: 'Prefer a buck converter above a 3 V drop.',
        confidence: 'medium',
        importance: 0.7,
        sources: ['S1.E1'],
      },
      { theme: 'misc', text: 'Sessions were short.', confidence: 'low', importance: 0.1, sources: ['S1', 'S2'] },
    ];
    model.enqueue({ text: ['```json\n', JSON.stringify(answer), '\n```'], usage: USAGE });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/memory/consolidate',
      payload: { projectId: project, minImportance: 0.5 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      mode: 'on_demand',
      fetchedCount: 2,
      groupCount: 3,
      synthesizedCount: 3,
      acceptedCount: 2,
      rejectedCount: 1,
      revalidatedCount: 0,
      newlyFailedCount: 0,
    });
    expect(body.rejectedReasons[0]).toContain('importance 0.1, below minImportance 0.5');

    // One request, role summarisation's route, carrying every session and event under its label.
    expect(model.requests.length).toBe(before + 1);
    expect(model.last?.body.model).toBe('llama3.1:8b');
    const prompt = JSON.stringify(model.last?.body.messages);
    expect(prompt).toContain('[S1.E1] lesson (theme power_analysis): A buck converter');
    expect(prompt).toContain('[S2.E2] insight (theme mechanical_validation): Fillet radius');
    expect(prompt).not.toContain('Meshed with'); // notes are not insights

    const stored = await consolidated(t, project);
    expect(stored.map((i) => [i.theme, i.confidence, i.certainty]).sort()).toEqual([
      ['mechanical_validation', 'llm_inferred', 'high'],
      ['power_analysis', 'llm_inferred', 'medium'],
    ]);
    const fillet = stored.find((i) => i.theme === 'mechanical_validation')!;
    expect(fillet).toMatchObject({ project_id: project, model: 'llama3.1:8b', record_id: expect.any(String) });
    expect(fillet.sources).toEqual([
      { session_id: bracket, seq: null },
      { session_id: bracket, seq: 2 },
    ]);
    expect(stored.find((i) => i.theme === 'power_analysis')!.sources).toEqual([{ session_id: power, seq: 1 }]);

    // The verbatim ones are still there, beside them; the tool answers the same through the registry.
    const listed = await call(t.node.broker, MemoryActions.insights, { project_id: project });
    expect(listed.insights.map((i) => i.confidence)).toEqual(['verbatim', 'verbatim']);
    const tool = await okData(callTool(t.node.broker, 'memory.list_insights', { project_id: project }));
    expect(tool.consolidated.map((i: { id: string }) => i.id).sort()).toEqual(stored.map((i) => i.id).sort());
    const themed = await okData(
      callTool(t.node.broker, 'memory.list_insights', { project_id: project, theme: 'power_analysis' }),
    );
    expect(themed.consolidated.map((i: { theme: string }) => i.theme)).toEqual(['power_analysis']);

    // retrieve_similar_experience lists the consolidated insight its query matches.
    const similar = await okData(
      callTool(t.node.broker, 'memory.retrieve_similar_experience', {
        query: 'bracket fillet stress',
        project_id: project,
      }),
    );
    expect(similar.consolidated.map((i: { id: string }) => i.id)).toEqual([fillet.id]);
    expect(similar.experiences[0].session.id).toBe(bracket);
  });

  it('bad input is 422 VALIDATION_FAILED naming the field, over the route and the bus; nothing asked of the model', async () => {
    const before = model.requests.length;
    for (const [payload, field] of [
      [{ projectId: 'p1' }, 'projectId'],
      [{ fetchLimit: 0 }, 'fetchLimit'],
      [{ minImportance: 1.5 }, 'minImportance'],
      [{ mode: 'nightly' }, 'mode'],
      [{ since: '2025-03-01T00:00:00Z', until: '2025-02-01T00:00:00Z' }, 'until'],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: '/v1/memory/consolidate', payload });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.json().error.details), field).toContain(field);
    }
    const bus = await failure(call(t.node.broker, MemoryActions.consolidate, { fetchLimit: 0 }));
    expect(bus).toMatchObject({ type: 'VALIDATION_FAILED' });
    const janitor = await failure(
      call(t.node.broker, MemoryActions.consolidate, { mode: 'janitor', projectId: project }),
    );
    expect(janitor).toMatchObject({ type: 'VALIDATION_FAILED' });
    expect(janitor.message).toContain('on_demand');
    expect(model.requests.length).toBe(before);
  });
});

describe('memory consolidation without a summarisation route', () => {
  let t: TestNode;
  const project = '6f1c0c1e-0000-4000-8000-00000000b001';

  beforeAll(async () => {
    t = await startTestNode({ roles: ROLES });
    await capture(t, project, 'Gearbox backlash', [['insight', 'Preload the bearings', 'mechanical_validation']]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers the harness environment failure, 503 naming what to configure, and writes nothing', async () => {
    const app = await routeApp(t);
    try {
      const res = await app.inject({ method: 'POST', url: '/v1/memory/consolidate', payload: { projectId: project } });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        details: { failure_class: 'environment', role: 'summarisation' },
      });
      expect(res.json().error.message).toContain('SERVICE_ROUTE_SUMMARISATION');
    } finally {
      await app.close();
    }
    expect(await consolidated(t, project)).toEqual([]);
  });
});
