import { describe, expect, it } from 'vitest';
import type { AnnouncedTool, Caller } from '../../../contracts/actions/adapters.actions.ts';
import { annotationsOf, TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';
import { toolFailed, type ToolResult } from '../../../contracts/tool-result.ts';
import type { ModelToolCall } from '../../../contracts/harness-calls.ts';
import {
  approvalPolicy,
  planToolOffer,
  toolMessages,
  ToolTurn,
  type ToolStepDeps,
} from '../../../actors/harness/tools/index.ts';

const SCHEMAS: Record<string, Record<string, unknown>> = {
  'project.get': {
    type: 'object',
    properties: { project_id: { type: 'string' } },
    required: ['project_id'],
    additionalProperties: false,
  },
  'project.create': {
    type: 'object',
    properties: { name: { type: 'string' }, kind: { enum: ['hardware', 'software'], default: 'hardware' } },
    required: ['name'],
    additionalProperties: false,
  },
  'project.list': {},
};

/** Registry listings of three project tools with their catalogue annotations (get/list read-only, create additive). */
const listed: AnnouncedTool[] = Object.entries(SCHEMAS).map(([id, input_schema]) => {
  const e = TOOL_CATALOGUE.get(id)!;
  return {
    tool_id: id,
    adapter_id: 'project',
    name: id.split('.')[1],
    description: id,
    capability: 'project',
    input_schema,
    phase: 1,
    resource_limits: { max_memory_mb: 1024, max_cpu_seconds: 300, max_disk_mb: 256 },
    annotations: annotationsOf(e),
    idempotent: e.idempotent,
  };
});
const { byName } = planToolOffer(listed, { family: 'openai_compatible' });

/** A callTool that records each call and answers only when the test settles it. */
function recorder(caller: Caller = { kind: 'remote', transport: 'internal' }) {
  const calls: { id: string; args: Record<string, unknown>; openAtStart: number; settle(r: ToolResult): void }[] = [];
  let open = 0;
  const waiters: { n: number; wake(): void }[] = [];
  const deps: ToolStepDeps = {
    byName,
    requiresApproval: approvalPolicy(caller),
    callTool: (id, args) =>
      new Promise<ToolResult>((resolve) => {
        calls.push({
          id,
          args,
          openAtStart: open++,
          settle: (r) => {
            open--;
            resolve(r);
          },
        });
        for (const w of waiters.filter((x) => calls.length >= x.n)) w.wake();
      }),
  };
  const started = (n: number) =>
    calls.length >= n ? Promise.resolve() : new Promise<void>((wake) => waiters.push({ n, wake }));
  return { calls, deps, started };
}

const ok = (id: string, data: Record<string, unknown>): ToolResult => ({
  status: 'success',
  tool_id: id,
  data,
  output_files: [],
  duration_ms: 1,
});
const call = (id: string, name: string, args: Record<string, unknown> = {}): ModelToolCall => ({
  id,
  name,
  arguments: args,
});

describe('a model step of tool calls (SPEC "Chat and harness rules" 1-4)', () => {
  it('runs independent calls concurrently and answers in the model order, a failure isolated', async () => {
    const r = recorder();
    const turn = new ToolTurn(r.deps);
    const step = turn.runStep([
      call('c1', 'project__get', { project_id: 'p1' }),
      call('c2', 'project__get', { project_id: 'p2' }),
      call('c3', 'project__list'),
    ]);
    await r.started(3);
    expect(r.calls.map((c) => c.openAtStart)).toEqual([0, 1, 2]);
    // Settled in reverse order; the second fails as the adapter said.
    r.calls[2].settle(ok('project.list', { projects: [] }));
    r.calls[1].settle(
      toolFailed('project.get', {
        type: 'TOOL_EXECUTION_ERROR',
        message: 'project p2 not found',
        details: { hint: 'list the projects first' },
      }),
    );
    r.calls[0].settle(ok('project.get', { id: 'p1' }));
    const obs = await step;
    expect(obs.map((o) => o.call_id)).toEqual(['c1', 'c2', 'c3']);
    expect(obs[0].envelope).toEqual({ status: 'success', tool: 'project.get', data: { id: 'p1' }, output_files: [] });
    expect(obs[1].envelope).toMatchObject({
      status: 'error',
      tool: 'project.get',
      error: 'tool_execution_error',
      failure_class: 'tool',
      message: 'project p2 not found',
      hint: 'list the projects first',
    });
    expect(obs[2].envelope.status).toBe('success');
    expect(toolMessages(obs).map((m) => [m.tool_call_id, m.is_error])).toEqual([
      ['c1', false],
      ['c2', true],
      ['c3', false],
    ]);
  });

  it('runs a step serially when one of its calls needs a person to approve it', async () => {
    const r = recorder();
    expect(r.deps.requiresApproval(byName.get('project__create')!)).toBe(true);
    expect(r.deps.requiresApproval(byName.get('project__get')!)).toBe(false);
    const step = new ToolTurn(r.deps).runStep([
      call('c1', 'project__get', { project_id: 'p1' }),
      call('c2', 'project__create', { name: 'Rover' }),
      call('c3', 'project__get', { project_id: 'p2' }),
    ]);
    for (let i = 0; i < 3; i++) {
      await r.started(i + 1);
      expect(r.calls).toHaveLength(i + 1);
      r.calls[i].settle(ok(r.calls[i].id, { n: i }));
    }
    const obs = await step;
    expect(r.calls.map((c) => [c.id, c.openAtStart])).toEqual([
      ['project.get', 0],
      ['project.create', 0],
      ['project.get', 0],
    ]);
    expect(obs.map((o) => o.envelope.status)).toEqual(['success', 'success', 'success']);
    // A design-flow phase (service caller, approval mode forward) holds nothing: the same step would run concurrently.
    expect(approvalPolicy({ kind: 'service', transport: 'internal' })(byName.get('project__create')!)).toBe(false);
  });

  it('refuses invalid arguments with the rule-1 envelope before anything runs or waits', async () => {
    const r = recorder();
    const obs = await new ToolTurn(r.deps).runStep([
      call('c1', 'project__create', { kind: 'firmware' }),
      call('c2', 'project__get', { project_id: 7 }),
    ]);
    expect(r.calls).toHaveLength(0);
    expect(obs[0]).toMatchObject({ ran: false, tool_id: 'project.create' });
    expect(obs[0].envelope).toMatchObject({
      status: 'error',
      error: 'invalid_arguments',
      validation_errors: expect.arrayContaining([
        { path: 'name', message: 'is required' },
        { path: 'kind', message: 'must be one of ["hardware","software"]' },
      ]),
      hint: expect.stringContaining('input_schema'),
    });
    expect(obs[1].envelope).toMatchObject({
      error: 'invalid_arguments',
      validation_errors: [{ path: 'project_id', message: 'must be string' }],
    });
  });

  it('does not validate a tool without a schema, and answers an unknown name with a reasoning envelope', async () => {
    const r = recorder();
    const step = new ToolTurn(r.deps).runStep([
      call('c1', 'project__list', { anything: [1, 2] }),
      call('c2', 'project.get', { project_id: 'p1' }),
    ]);
    await r.started(1);
    expect(r.calls[0]).toMatchObject({ id: 'project.list', args: { anything: [1, 2] } });
    r.calls[0].settle(ok('project.list', {}));
    const obs = await step;
    expect(r.calls).toHaveLength(1);
    expect(obs[1]).toMatchObject({
      ran: false,
      tool_id: null,
      envelope: { status: 'error', error: 'unknown_tool', failure_class: 'reasoning' },
    });
  });

  it('caches an identical successful call within a turn, never a failure, never across turns', async () => {
    const r = recorder();
    const turn = new ToolTurn(r.deps);
    const first = turn.runStep([call('c1', 'project__get', { project_id: 'p1' })]);
    await r.started(1);
    r.calls[0].settle(ok('project.get', { id: 'p1' }));
    await first;

    // Same tool and canonical arguments (key order and defaults do not matter): no second run.
    const again = await turn.runStep([call('c2', 'project__get', { project_id: 'p1' })]);
    expect(again[0]).toMatchObject({ ran: false, envelope: { status: 'success', cached: true, data: { id: 'p1' } } });
    expect(r.calls).toHaveLength(1);

    // A failure is not stored: the repeat runs again.
    const failing = turn.runStep([call('c3', 'project__create', { name: 'X' })]);
    await r.started(2);
    r.calls[1].settle(toolFailed('project.create', { type: 'TOOL_TIMEOUT', message: 'too slow', details: {} }));
    expect((await failing)[0].envelope).toMatchObject({ error: 'tool_timeout', message: 'too slow' });
    const retry = turn.runStep([call('c4', 'project__create', { kind: 'hardware', name: 'X' })]);
    await r.started(3);
    r.calls[2].settle(ok('project.create', { id: 'p9' }));
    expect((await retry)[0]).toMatchObject({ ran: true, envelope: { status: 'success' } });
    // Now stored, with the default spelled out or not.
    const cached = await turn.runStep([call('c5', 'project__create', { name: 'X' })]);
    expect(cached[0].envelope).toMatchObject({ cached: true, data: { id: 'p9' } });

    // A new turn starts with nothing stored.
    const next = new ToolTurn(r.deps).runStep([call('c6', 'project__get', { project_id: 'p1' })]);
    await r.started(4);
    r.calls[3].settle(ok('project.get', { id: 'p1' }));
    expect((await next)[0]).toMatchObject({ ran: true });
    expect((await next)[0].envelope).not.toHaveProperty('cached');
  });

  it('runs an identical pair of one step once and marks the second cached', async () => {
    const r = recorder();
    const step = new ToolTurn(r.deps).runStep([
      call('c1', 'project__get', { project_id: 'p1' }),
      call('c2', 'project__get', { project_id: 'p1' }),
    ]);
    await r.started(1);
    r.calls[0].settle(ok('project.get', { id: 'p1' }));
    const obs = await step;
    expect(r.calls).toHaveLength(1);
    expect(obs.map((o) => [o.call_id, o.ran, 'cached' in o.envelope])).toEqual([
      ['c1', true, false],
      ['c2', false, true],
    ]);
  });

  it('confines a thrown bus error to its own call', async () => {
    const deps: ToolStepDeps = {
      byName,
      requiresApproval: () => false,
      callTool: async (id) => {
        if (id === 'project.list') throw new Error('Service tools.call is not available');
        return ok(id, { id: 'p1' });
      },
    };
    const obs = await new ToolTurn(deps).runStep([
      call('c1', 'project__list'),
      call('c2', 'project__get', { project_id: 'p1' }),
    ]);
    expect(obs[0].envelope).toMatchObject({
      status: 'error',
      error: 'tool_unavailable',
      message: expect.stringContaining('not available'),
    });
    expect(obs[1].envelope.status).toBe('success');
  });
});

describe('approval of an EDA export in a chat turn, judged per call like the registry (issue 27 finding 4)', () => {
  const e = TOOL_CATALOGUE.get('eda.export_bom')!;
  const exportBom: AnnouncedTool = {
    ...listed[0]!,
    tool_id: 'eda.export_bom',
    adapter_id: 'eda',
    name: 'export_bom',
    capability: 'eda',
    input_schema: { type: 'object', properties: {} },
    annotations: annotationsOf(e),
    idempotent: e.idempotent,
  };
  const tool = planToolOffer([exportBom], { family: 'openai_compatible' }).byName.get('eda__export_bom')!;
  const chat = approvalPolicy({ kind: 'remote', transport: 'internal', client: 'chat:t' });

  it('needs no person for an export into its own scratch folder, and one for a workspace path or an overwrite', () => {
    expect(chat(tool, { schematic_path: 'a.kicad_sch' })).toBe(false);
    expect(chat(tool, { schematic_path: 'a.kicad_sch', output_path: 'out/a.csv' })).toBe(true);
    expect(chat(tool, { schematic_path: 'a.kicad_sch', output_path: 'a.kicad_pcb', overwrite: true })).toBe(true);
    expect(chat(tool)).toBe(true);
  });
});
