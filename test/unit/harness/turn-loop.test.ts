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
