import type { Context } from 'moleculer';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../actors/tools/dispatch.ts';
import type { AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import { IDEMPOTENT_RETRY, TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';

const tool = (idempotent: boolean): AnnouncedTool => ({
  tool_id: 'x.t',
  adapter_id: 'x',
  name: 't',
  description: 'test tool',
  capability: 'x',
  input_schema: { type: 'object' },
  output_schema: null,
  phase: 1,
  resource_limits: { max_memory_mb: 1024, max_cpu_seconds: 300, max_disk_mb: 256 },
  annotations: { readOnlyHint: idempotent, destructiveHint: false, idempotentHint: idempotent, openWorldHint: false },
  idempotent,
});

const params = {
  name: 'x.t',
  arguments: {},
  timeout_seconds: 5,
  call_id: 'c',
  caller: { kind: 'stdio' as const, transport: 'stdio' as const },
};

/** A bus whose adapter node dies (`REQUEST_REJECTED`) on the first `n` calls, then answers. */
function flakyBus(failures: number, type = 'REQUEST_REJECTED') {
  let calls = 0;
  const ctx = {
    call: async () => {
      calls++;
      if (calls <= failures) throw Object.assign(new Error('node gone'), { type });
      return { status: 'success', tool_id: 'x.t', data: { n: calls }, output_files: [], duration_ms: 1 };
    },
  } as unknown as Context;
  return { ctx, count: () => calls };
}

describe('dispatch to an adapter', () => {
  it('retries an idempotent tool once when its node crashed mid-call', async () => {
    const bus = flakyBus(1);
    const out = await dispatch(bus.ctx, tool(true), params);
    expect(out).toMatchObject({ status: 'success', data: { n: 2 } });
    expect(bus.count()).toBe(2);
  });

  it('never retries a non-idempotent tool: a crash is TOOL_EXECUTION_ERROR', async () => {
    const bus = flakyBus(1);
    const out = await dispatch(bus.ctx, tool(false), params);
    expect(out).toMatchObject({ status: 'error', tool_id: 'x.t', error: { type: 'TOOL_EXECUTION_ERROR' } });
    expect(bus.count()).toBe(1);
  });

  it('maps a bus timeout to TOOL_TIMEOUT with the spec message', async () => {
    const bus = flakyBus(1, 'REQUEST_TIMEOUT');
    const out = await dispatch(bus.ctx, tool(true), params);
    expect(out).toMatchObject({
      status: 'error',
      tool_id: 'x.t',
      error: { type: 'TOOL_TIMEOUT', message: 'tool x.t exceeded its timeout of 5 seconds' },
    });
    expect(bus.count()).toBe(1);
  });

  it('waits the catalogue backoff between sends and stops after its retries, saying how often it sent', async () => {
    const bus = flakyBus(5);
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const out = await dispatch(bus.ctx, tool(true), params, { sleep });
    expect(bus.count()).toBe(IDEMPOTENT_RETRY.retries + 1);
    expect(waits).toEqual([500, 1000]);
    expect(out).toMatchObject({
      status: 'error',
      error: { type: 'TOOL_EXECUTION_ERROR', message: expect.stringMatching(/lost mid-call on each of its 3 sends/) },
    });
  });

  it('declares a retry policy for every idempotent catalogue tool and none for the others', () => {
    for (const e of TOOL_CATALOGUE.values()) {
      if (e.idempotent) expect(e.retry.retries, e.id).toBeGreaterThan(0);
      else expect(e.retry.retries, e.id).toBe(0);
    }
    expect(TOOL_CATALOGUE.get('web.fetch')?.retry).toEqual({ retries: 1, backoff_ms: 1000, max_backoff_ms: 1000 });
  });
});
