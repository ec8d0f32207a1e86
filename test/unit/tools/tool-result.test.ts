import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { defineTool, InvalidArgumentsError, ToolError } from '../../../actors/adapters/kit/tool.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import { ToolResultSchema, type ToolResult } from '../../../contracts/tool-result.ts';
import { startActors } from '../../support/actors.ts';

// ISSUE 13 point 3: one tool-result model from adapter to wire. The adapter kit answers a ToolResult; the registry
// passes it through unchanged and answers its own refusals in the same shape; only the gateway renders it.
const echo = defineTool({
  name: 'echo',
  description: 'answers its argument, or fails as asked',
  input: z.object({ say: z.string(), fail: z.enum(['no', 'tool', 'args', 'crash']).default('no') }),
  handler: async (a) => {
    if (a.fail === 'tool') throw new ToolError('the tool refused', { code: 'NOPE', said: a.say });
    if (a.fail === 'args') throw new InvalidArgumentsError(`say ${a.say} is outside the workspace`, { say: a.say });
    if (a.fail === 'crash') throw new Error('kaboom');
    return { said: a.say };
  },
});

let h: BrokerHandle;
beforeAll(async () => {
  h = await startActors([
    createAdapterService({ id: 'res', version: '1', capability: 'test', tools: [echo] }),
    createToolsService,
  ]);
  await h.broker.waitForServices(['tools', 'adapters.res']);
});
afterAll(async () => {
  await h.broker.stop();
});

const caller = { kind: 'stdio', transport: 'stdio' } as const;
const invoke = (args: Record<string, unknown>) =>
  call(h.broker, adapterActions('res').invoke, {
    tool_id: 'res.echo',
    arguments: { fail: 'no', ...args },
    call_id: 'c-direct',
    timeout_ms: 5000,
    caller,
  });
const viaRegistry = (name: string, args: Record<string, unknown>) =>
  call(h.broker, ToolsActions.call, { name, arguments: args, call_id: 'c-reg', caller });
const withoutDuration = ({ duration_ms, ...rest }: ToolResult) => (expect(duration_ms).toBeGreaterThanOrEqual(0), rest);

describe('one tool result from adapter to registry', () => {
  it.each([
    ['success', { say: 'hi' }],
    ['a tool error', { say: 'hi', fail: 'tool' }],
    ['an adapter rule refusing an argument', { say: 'x', fail: 'args' }],
    ['a crash', { say: 'hi', fail: 'crash' }],
  ])('%s: the registry answers exactly what the adapter answered', async (_label, args) => {
    const direct = await invoke(args);
    const passed = await viaRegistry('res.echo', args);
    expect(ToolResultSchema.parse(direct)).toEqual(direct);
    expect(withoutDuration(passed)).toEqual(withoutDuration(direct));
  });

  it('the adapter kit names the tool and the error type in the result', async () => {
    expect(await invoke({ say: 'hi' })).toMatchObject({ status: 'success', tool_id: 'res.echo', data: { said: 'hi' } });
    expect(await invoke({ say: 'hi', fail: 'tool' })).toMatchObject({
      status: 'error',
      tool_id: 'res.echo',
      error: { type: 'TOOL_EXECUTION_ERROR', message: 'the tool refused', details: { code: 'NOPE', said: 'hi' } },
    });
    expect(await invoke({ say: 'x', fail: 'args' })).toMatchObject({
      error: {
        type: 'INVALID_ARGUMENTS',
        message: 'Invalid arguments for res.echo: (arguments) say x is outside the workspace',
        details: { validation_errors: [{ path: '(arguments)', message: 'say x is outside the workspace' }] },
      },
    });
  });

  it("the registry's own refusals are the same shape: unknown tool, bad arguments", async () => {
    const unknown = await viaRegistry('res.ecko', { say: 'hi' });
    expect(ToolResultSchema.parse(unknown)).toEqual({
      status: 'error',
      tool_id: 'res.ecko',
      error: {
        type: 'TOOL_NOT_FOUND',
        message: 'Tool not found: res.ecko; did you mean res.echo?',
        details: { did_you_mean: ['res.echo'], tool_count: 1 },
      },
      duration_ms: 0,
    });
    const bad = await viaRegistry('res.echo', { say: 3 });
    expect(ToolResultSchema.parse(bad)).toMatchObject({
      status: 'error',
      tool_id: 'res.echo',
      error: { type: 'INVALID_ARGUMENTS', details: { validation_errors: [{ path: 'say' }] } },
    });
  });
});
