import { describe, expect, it } from 'vitest';
import type { AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import type { HarnessCallParams, HarnessCallResult, ModelToolCall } from '../../../contracts/harness-calls.ts';
import { HarnessTurnParamsSchema } from '../../../contracts/harness-turns.ts';
import { runTurn, type TurnDeps } from '../../../actors/harness/calls/turn.ts';

/** 200 registry tools, over the OpenAI-compatible family's cap of 128: `extra.tool_150` is left out of the offer. */
const listed: AnnouncedTool[] = Array.from({ length: 200 }, (_, i) => ({
  tool_id: `extra.tool_${i}`,
  adapter_id: 'extra',
  name: `tool_${i}`,
  description: i === 150 ? 'Measures the flux capacitor' : `Tool number ${i}`,
  capability: 'extra',
  phase: 1,
  input_schema: { type: 'object', properties: {} },
  resource_limits: { max_memory_mb: 64, max_cpu_seconds: 10, max_disk_mb: 10 },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  idempotent: true,
}));

/** A model scripted step by step: each step's tool calls (none: it answers in words); it records what it was offered. */
function scripted(steps: ModelToolCall[][]) {
  const offered: string[][] = [];
  const call = async (p: HarnessCallParams): Promise<HarnessCallResult> => {
    offered.push(p.tools.map((t) => t.name));
    const calls = steps[offered.length - 1] ?? [];
    return {
      outcome: 'ok',
      record_id: `r${offered.length}`,
      route: { provider: 'local', model: 'm', source: 'explicit', credential_id: 'c', fallback: null },
      attempts: [],
      completion: {
        text: calls.length ? '' : 'done',
        tool_calls: calls,
        stop_reason: calls.length ? 'tool_use' : 'end_turn',
        usage: { prompt_tokens: 1, completion_tokens: 1, cached_input_tokens: 0, usage_reported: true },
        model: 'm',
      },
    };
  };
  return { offered, call };
}

describe('harness turn: search_tools pins a tool the cap left out (rule 5)', () => {
  it('offers the found tool from the next step on, and the model can call it', async () => {
    const ran: string[] = [];
    const model = scripted([
      [{ id: 'a', name: 'search_tools', arguments: { query: 'flux capacitor' } }],
      [{ id: 'b', name: 'extra__tool_150', arguments: {} }],
    ]);
    const deps: TurnDeps = {
      call: model.call,
      family: async () => 'openai_compatible',
      listTools: async () => listed,
      callTool: () => async (id) => {
        ran.push(id);
        return { status: 'success', tool_id: id, data: { ok: true }, output_files: [], duration_ms: 1 };
      },
      exemptLocalWrites: true,
      log: { warn: () => {} },
    };
    const params = HarnessTurnParamsSchema.parse({
      role: 'chat',
      provider: 'local',
      model: 'm',
      messages: [{ role: 'user', content: 'measure the flux' }],
      tools: { caller: { kind: 'service', transport: 'internal' } },
    });
    const r = await runTurn(params, deps);

    expect(r.outcome).toBe('done');
    expect(model.offered[0]).toHaveLength(128);
    expect(model.offered[0]).toContain('search_tools');
    expect(model.offered[0]).not.toContain('extra__tool_150');
    expect(r.steps[0]!.tool_calls[0]).toMatchObject({ name: 'search_tools', status: 'success' });
    expect(model.offered[1]).toHaveLength(128);
    expect(model.offered[1]).toContain('extra__tool_150');
    expect(ran).toEqual(['extra.tool_150']);
    expect(r.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 3 });
  });
});

describe('harness turn: older tool results fold past 60% of the context window', () => {
  it('sends earlier results folded to their tool, status and ids, the latest step whole, and answers them whole', async () => {
    const big = 'x'.repeat(4_000);
    const ids = ['6f1c0c1e-0000-4000-8000-000000000001', '6f1c0c1e-0000-4000-8000-000000000002'];
    const model = scripted([
      [{ id: 'a', name: 'extra__tool_1', arguments: {} }],
      [{ id: 'b', name: 'extra__tool_2', arguments: {} }],
      [{ id: 'c', name: 'extra__tool_3', arguments: {} }],
    ]);
    const sent: HarnessCallParams['messages'][] = [];
    const deps: TurnDeps = {
      call: (p) => (sent.push(p.messages), model.call(p)),
      family: async () => 'anthropic',
      listTools: async () => listed.slice(0, 5),
      callTool: () => async (id) => ({
        status: 'success',
        tool_id: id,
        data: { node_id: ids[Number(id.at(-1)) - 1] ?? 'none', text: big },
        output_files: [],
        duration_ms: 1,
      }),
      exemptLocalWrites: true,
      log: { warn: () => {} },
    };
    const params = HarnessTurnParamsSchema.parse({
      role: 'chat',
      provider: 'local',
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      tools: { caller: { kind: 'service', transport: 'internal' } },
      context_tokens: 2_000,
    });
    const r = await runTurn(params, deps);

    expect(r.outcome).toBe('done');
    expect(r.folded_steps).toBe(2); // steps 3 and 4 passed 1,200 tokens
    const tools = (m: HarnessCallParams['messages']) => m.filter((x) => x.role === 'tool').map((x) => x.content);
    const third = tools(sent[2]!);
    expect(JSON.parse(third[0]!)).toMatchObject({ folded: true, status: 'success', ids: [ids[0]] });
    expect(third[1]).toContain(big); // the latest step whole
    const fourth = tools(sent[3]!);
    expect(fourth.slice(0, 2).map((c) => JSON.parse(c).ids)).toEqual([[ids[0]], [ids[1]]]);
    expect(fourth[2]).toContain(big);
    // What the turn answers (and the chat stores) is whole.
    expect(r.messages.filter((m) => m.role === 'tool').every((m) => m.content.includes(big))).toBe(true);
  });
});

describe('harness turn: a commit-capable skill is left out with the writes (SPEC chat rule 6)', () => {
  it('offers no tool whose input has a commit field when asked', async () => {
    const skill: AnnouncedTool = {
      ...listed[0]!,
      tool_id: 'extra.commit_skill',
      name: 'commit_skill',
      input_schema: { type: 'object', properties: { commit: { type: 'boolean' } } },
    };
    const model = scripted([]);
    const deps: TurnDeps = {
      call: model.call,
      family: async () => 'anthropic',
      listTools: async () => [skill, listed[1]!],
      callTool: () => async () => {
        throw new Error('no tool runs here');
      },
      exemptLocalWrites: true,
      log: { warn: () => {} },
    };
    const base = {
      role: 'chat',
      provider: 'local',
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    };
    const caller = { kind: 'remote', transport: 'internal' };
    await runTurn(HarnessTurnParamsSchema.parse({ ...base, tools: { caller } }), deps);
    await runTurn(HarnessTurnParamsSchema.parse({ ...base, tools: { caller, exclude_commit_capable: true } }), deps);
    expect(model.offered[0]).toContain('extra__commit_skill');
    expect(model.offered[1]).not.toContain('extra__commit_skill');
    expect(model.offered[1]).toContain('extra__tool_1');
  });
});
