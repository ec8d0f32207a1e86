import crypto from 'node:crypto';
import type { ServiceBroker } from 'moleculer';
import { call } from '../../brokers/actions.ts';
import type { Caller, InvokeResult } from '../../contracts/actions/adapters.actions.ts';
import { ToolsActions, type ToolCallOutcome } from '../../contracts/actions/tools.actions.ts';
import { afterAll, beforeAll, inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from './pg.ts';

/** Calls a tool through the registry's real dispatch path (validation, hold policy, adapter) as a local (stdio) caller. */
export function callTool(
  broker: ServiceBroker,
  name: string,
  args: Record<string, unknown>,
  caller: Partial<Caller> = {},
): Promise<ToolCallOutcome> {
  return call(broker, ToolsActions.call, {
    name,
    arguments: args,
    call_id: `t-${crypto.randomUUID()}`,
    caller: { kind: 'stdio', transport: 'stdio', ...caller },
  });
}

/**
 * A call through the registry (where arguments are validated, once, and defaults filled in) answered in the adapter's
 * invoke shape, for adapter tests written against `invoke`: success, or the failure with its error type.
 */
export async function invokeViaRegistry(
  broker: ServiceBroker,
  name: string,
  args: Record<string, unknown>,
  caller: Partial<Caller> = {},
  extra: { call_id?: string; progress_node?: string; timeout_seconds?: number } = {},
): Promise<InvokeResult> {
  const o = await call(broker, ToolsActions.call, {
    name,
    arguments: args,
    call_id: `t-${crypto.randomUUID()}`,
    caller: { kind: 'stdio', transport: 'stdio', ...caller },
    ...extra,
  });
  if (o.kind === 'ok')
    return { status: 'success', data: o.data, output_files: o.output_files, duration_ms: o.duration_ms };
  if (o.kind === 'tool_error') return { status: 'error', error: o.error, duration_ms: o.duration_ms };
  if (o.kind === 'invalid_params')
    return {
      status: 'error',
      error: {
        type: 'INVALID_ARGUMENTS',
        message: 'invalid arguments',
        details: { validation_errors: o.validation_errors },
      },
      duration_ms: 0,
    };
  if (o.kind === 'unavailable')
    return {
      status: 'error',
      error: { type: 'TOOL_UNAVAILABLE', message: o.message, details: o.message },
      duration_ms: o.duration_ms,
    };
  throw new Error(`unexpected outcome ${JSON.stringify(o)}`);
}

/** The data of a successful call; fails the test with the outcome otherwise. */
export async function okData<T = Record<string, any>>(p: Promise<ToolCallOutcome>): Promise<T> {
  const o = await p;
  if (o.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(o)}`);
  return o.data as T;
}

/** The message of a tool error outcome; fails the test otherwise. */
export async function toolError(
  p: Promise<ToolCallOutcome>,
): Promise<{ message: string; type: string; details: unknown }> {
  const o = await p;
  if (o.kind !== 'tool_error') throw new Error(`expected a tool error, got ${JSON.stringify(o)}`);
  return { message: o.error.message, type: o.error.type, details: o.error.details };
}

/**
 * Environment for a node on a fresh database of its own on the real PostgreSQL server when it is up (always in CI),
 * else the in-memory PGlite (a local run without servers).
 */
export async function realDbEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!inject('servers').pg) return { env: {}, drop: async () => undefined };
  const db: TestDatabase = await createTestDatabase();
  return { env: { SERVICE_DATABASE_URL: db.url }, drop: () => db.drop() };
}

/**
 * Starts a node before the tests of the file (or of the enclosing describe) and stops it after them, on a database of
 * its own (see `realDbEnv`; `ownDb: false` leaves `env` empty). The answer reads through to the started node: read it
 * inside tests and hooks only.
 */
export function useNode<T extends { stop(): Promise<void> }>(
  start: (env: Record<string, string>) => Promise<T>,
  opts: { ownDb?: boolean } = {},
): T {
  let node: T;
  let drop = async (): Promise<void> => undefined;
  beforeAll(async () => {
    const db = opts.ownDb === false ? { env: {}, drop } : await realDbEnv();
    drop = db.drop;
    node = await start(db.env);
  });
  afterAll(async () => {
    await node.stop();
    await drop();
  });
  return new Proxy({} as T, { get: (_, key) => Reflect.get(node, key) });
}

/** A progress notice an adapter forwards to the gateway holding the caller's stream. */
export type ToolProgress = { call_id: string; progress: number; message: string };

/**
 * Stands in for the gateway holding the caller's stream: a `gateway` service on `broker` that records into `progress`
 * every notice the adapter forwards.
 */
export async function recordToolProgress(broker: ServiceBroker, progress: ToolProgress[]): Promise<void> {
  broker.createService({
    name: 'gateway',
    actions: {
      toolProgress(ctx) {
        progress.push(ctx.params as ToolProgress);
        return { delivered: true };
      },
    },
  });
  await broker.waitForServices('gateway');
}
