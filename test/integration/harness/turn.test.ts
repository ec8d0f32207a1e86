import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HarnessCallsActions } from '../../../contracts/actions/harness-calls.actions.ts';
import { HarnessUsageActions } from '../../../contracts/actions/harness-usage.actions.ts';
import type { HarnessTurnResult } from '../../../contracts/harness-turns.ts';
import { FAMILY_CASES, KEY } from '../../support/llm-servers/families.ts';
import type { ScriptedReply, WireServer } from '../../support/llm-servers/wire-server.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

// harness.turn on a real node (harness, tools registry, project adapter) against each family's local wire server,
// reached through the SDKs: the model's tool calls run through the registry, their envelopes go back to the model in
// the family's own wire format, and the loop ends when the model answers without tools or at max_steps.

const SERVICE = { kind: 'service', transport: 'internal' } as const;
const ASK = [{ role: 'user' as const, content: 'Make a project called Turn rover, then tell me.' }];
const toolCall = (id: string, name: string, args: object) => ({ id, name, args: [JSON.stringify(args)] });
const USAGE = { prompt_tokens: 100, completion_tokens: 10 };

describe.each(FAMILY_CASES)('harness.turn on the $family family', (fc) => {
  let t: TestNode;
  let server: WireServer;
  const provider = fc.family === 'anthropic' ? 'anthropic' : 'local-llm';
  const turn = (params: Record<string, unknown>) =>
    call(t.node.broker, HarnessCallsActions.turn, {
      role: 'chat',
      provider,
      model: fc.model,
      messages: ASK,
      ...params,
    } as never) as Promise<HarnessTurnResult>;

  beforeAll(async () => {
    server = await fc.start({ apiKey: KEY });
    t = await startTestNode({
      roles: 'gateway,harness,tools,projects,adapter:project',
      env: { SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' }, // the local wire servers
    });
    const res = await fetch(`${t.url}/v1/harness/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider, api_key: KEY, base_url: server.url }),
    });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await t?.stop();
    await server?.close();
  });

  it('runs the tools the model asks for, gives it their envelopes, and ends when it answers in words', async () => {
    const from = server.requests.length;
    server.enqueue(
      {
        toolCalls: [
          toolCall('c1', 'project__create', { name: 'Turn rover' }),
          toolCall('c2', 'project__get', {}), // invalid: rule 1, never run
        ],
        usage: USAGE,
      },
      { text: ['Created Turn rover.'], usage: USAGE },
    );
    const r = await turn({ tools: { caller: SERVICE } });
    expect(r).toMatchObject({
      outcome: 'done',
      text: 'Created Turn rover.',
      failure: null,
      usage: { calls: 2, prompt_tokens: 200, completion_tokens: 20 },
    });
    expect(r.steps).toHaveLength(2);
    expect(r.steps[0]!.tool_calls).toEqual([
      {
        call_id: 'c1',
        name: 'project__create',
        tool_id: 'project.create',
        status: 'success',
        error: null,
        cached: false,
        ran: true,
      },
      {
        call_id: 'c2',
        name: 'project__get',
        tool_id: 'project.get',
        status: 'error',
        error: 'invalid_arguments',
        cached: false,
        ran: false,
      },
    ]);
    expect(r.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'assistant']);
    // Both steps are in the ledger once the turn has answered (written together, never skipped).
    const ledger = await call(t.node.broker, HarnessUsageActions.usageSummary, { window_hours: 1 });
    expect(ledger.usage.by_role.chat?.calls).toBeGreaterThanOrEqual(2);

    // The second request carried both envelopes in the family's own format, each naming its call.
    const second = JSON.stringify(server.requests[from + 1]!.body);
    expect(second).toContain('c1');
    expect(second).toContain('c2');
    expect(second).toContain('invalid_arguments');
    expect(second).toContain('Turn rover');
    const offered = server.requests[from]!.body.tools as { name?: string; function?: { name: string } }[];
    const names = offered.map((o) => o.name ?? o.function?.name);
    expect(names).toEqual(expect.arrayContaining(['search_tools', 'project__create', 'project__list']));

    const projects = (await (await fetch(`${t.url}/v1/projects`)).json()) as { projects?: { name: string }[] };
    expect(JSON.stringify(projects)).toContain('Turn rover');
  });

  it('stops at max_steps while the model still asks for tools', async () => {
    server.enqueue(
      { toolCalls: [toolCall('s1', 'project__list', {})], usage: USAGE },
      { toolCalls: [toolCall('s2', 'project__list', {})], usage: USAGE },
    );
    const r = await turn({ tools: { caller: SERVICE }, max_steps: 2 });
    expect(r.outcome).toBe('step_limit');
    expect(r.steps.map((s) => s.tool_calls[0]!.cached)).toEqual([false, true]); // rule 3 within the turn
  });

  it('ends failed with the classified failure and keeps what the turn added before it', async () => {
    const failing: ScriptedReply = { fault: { status: 500, message: 'upstream broke' } };
    server.enqueue({ toolCalls: [toolCall('f1', 'project__list', {})], usage: USAGE }, failing);
    const r = await turn({ tools: { caller: SERVICE } });
    expect(r).toMatchObject({ outcome: 'failed', failure: { class: 'transient' } });
    expect(r.messages.map((m) => m.role)).toEqual(['assistant', 'tool']);
  });

  it("finds tools with search_tools; a tool call in a turn without tools ends it as the model's reasoning failure", async () => {
    server.enqueue(
      { toolCalls: [toolCall('q1', 'search_tools', { query: 'create project' })], usage: USAGE },
      { text: ['Found it.'], usage: USAGE },
    );
    const found = await turn({ tools: { caller: SERVICE } });
    expect(found.outcome).toBe('done');
    const envelope = JSON.parse(String(found.messages[1]!.content)) as { data: { tools: { tool_id: string }[] } };
    expect(envelope.data.tools[0]!.tool_id).toBe('project.create');

    // A name the request did not offer is the model's mistake, classified at the call (never run, nothing to retry).
    server.enqueue({ toolCalls: [toolCall('u1', 'project__create', { name: 'Nope' })] });
    const none = await turn({});
    expect(none).toMatchObject({ outcome: 'failed', failure: { class: 'reasoning' }, messages: [], steps: [] });
  });

  it("holds a person's chat write (approval mode hold): the model reads approval_required", async () => {
    server.enqueue(
      { toolCalls: [toolCall('h1', 'project__create', { name: 'Held rover' })], usage: USAGE },
      { text: ['It needs approval.'], usage: USAGE },
    );
    const r = await turn({ tools: { caller: { kind: 'remote', transport: 'internal' } } });
    expect(r.steps[0]!.tool_calls[0]).toMatchObject({ status: 'error', error: 'approval_required', ran: true });
  });
});
