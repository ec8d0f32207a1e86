import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { defineTool, inputJsonSchema } from '../../../actors/adapters/kit/tool.ts';
import { untrustedInput } from '../../../actors/adapters/kit/tool-input.ts';
import { ArgValidator } from '../../../actors/tools/arg-validator.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { startActors } from '../../support/actors.ts';

// ISSUE 13 point 3: tool arguments are validated once, by the registry against the tool's JSON Schema; the adapter
// hands them to the tool as they come, except for a tool whose zod input says what JSON Schema cannot.
const received: unknown[] = [];
const plain = defineTool({
  name: 'plain',
  description: 'records its arguments',
  input: z.object({ n: z.number().int(), unit: z.enum(['mm', 'm']).default('mm') }),
  handler: async (args) => (received.push(args), { ok: true }),
});
const refined = defineTool({
  name: 'refined',
  description: 'a refinement JSON Schema cannot express',
  input: z
    .object({ lo: z.number(), hi: z.number() })
    .refine((v) => v.lo < v.hi, { message: 'lo must be below hi', path: ['hi'] }),
  handler: async (args) => (received.push(args), { ok: true }),
});

let h: BrokerHandle;
beforeAll(async () => {
  h = await startActors([
    createAdapterService({ id: 'once', version: '1', capability: 'test', tools: [plain, refined] }),
  ]);
});
afterAll(async () => {
  await h.broker.stop();
});

const invoke = (tool_id: string, args: Record<string, unknown>) =>
  call(h.broker, adapterActions('once').invoke, {
    tool_id,
    arguments: args,
    call_id: `c-${tool_id}`,
    timeout_ms: 5000,
    caller: { kind: 'service', transport: 'internal' },
  });

describe('arguments are validated once, at the registry', () => {
  it('the registry fills the schema defaults into a copy and leaves the caller arguments untouched', () => {
    const v = new ArgValidator();
    const schema = inputJsonSchema(plain.input);
    const mine = { n: 3 };
    expect(v.check(schema, mine)).toEqual({ ok: true, args: { n: 3, unit: 'mm' } });
    expect(mine).toEqual({ n: 3 });
    expect(v.check(schema, { n: 1.5 })).toMatchObject({ ok: false, issues: [{ path: 'n' }] });
    expect(v.check(schema, { n: 'x\u0000' })).toEqual({
      ok: false,
      issues: [{ path: 'n', message: 'must not contain a NUL character' }],
    });
  });

  it('the adapter does not re-validate: the tool gets what the registry passed, as is', async () => {
    received.length = 0;
    // Not valid for the zod schema (a string for a number): only the registry would refuse it, and it did not see it.
    const r = await invoke('once.plain', { n: 'opaque', unit: 'm' });
    expect(r).toMatchObject({ status: 'success' });
    expect(received).toEqual([{ n: 'opaque', unit: 'm' }]);
  });

  it('a tool whose zod input says more than its JSON Schema is still decoded by zod, and refused with INVALID_ARGUMENTS', async () => {
    received.length = 0;
    const r = await invoke('once.refined', { lo: 2, hi: 1 });
    expect(r).toMatchObject({
      status: 'error',
      error: {
        type: 'INVALID_ARGUMENTS',
        details: { validation_errors: [{ path: 'hi', message: 'lo must be below hi' }] },
      },
    });
    expect(received).toEqual([]);
  });
});

describe('untrustedInput', () => {
  it('names refinements, transforms and defaults inside unions; passes a plain object schema', () => {
    const check = (s: z.ZodType) => untrustedInput(s, inputJsonSchema(s));
    expect(check(plain.input)).toBeUndefined();
    expect(check(refined.input)).toMatch(/refinement/);
    expect(check(z.object({ s: z.string().transform((v) => v.length) }))).toMatch(/pipe|transform/);
    const union = z.object({
      load: z.union([z.object({ kind: z.literal('a'), f: z.number().default(1) }), z.object({ kind: z.literal('b') })]),
    });
    expect(check(union)).toMatch(/default inside/);
  });
});
