import crypto from 'node:crypto';
import type { ServiceBroker } from 'moleculer';
import { call } from '../../brokers/actions.ts';
import type { Caller } from '../../contracts/actions/adapters.actions.ts';
import { ToolsActions } from '../../contracts/actions/tools.actions.ts';
import type { ToolResult } from '../../contracts/tool-result.ts';
import { afterAll, beforeAll, inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from './pg.ts';

/** Calls a tool through the registry's real dispatch path (validation, hold policy, adapter) as a local (stdio) caller. */
export function callTool(
  broker: ServiceBroker,
  name: string,
  args: Record<string, unknown>,
  caller: Partial<Caller> = {},
): Promise<ToolResult> {
  return call(broker, ToolsActions.call, {
    name,
    arguments: args,
    call_id: `t-${crypto.randomUUID()}`,
    caller: { kind: 'stdio', transport: 'stdio', ...caller },
  });
}

/**
 * A call through the registry (where arguments are validated, once, and defaults filled in), for adapter tests written
 * against `invoke`: the registry answers the adapter's own ToolResult, so the two read alike.
 */
export function invokeViaRegistry(
  broker: ServiceBroker,
  name: string,
  args: Record<string, unknown>,
  caller: Partial<Caller> = {},
  extra: { call_id?: string; progress_node?: string; timeout_seconds?: number } = {},
): Promise<ToolResult> {
  return call(broker, ToolsActions.call, {
    name,
    arguments: args,
    call_id: `t-${crypto.randomUUID()}`,
    caller: { kind: 'stdio', transport: 'stdio', ...caller },
    ...extra,
  });
}

/** The data of a successful call; fails the test with the result otherwise. */
export async function okData<T = Record<string, any>>(p: Promise<ToolResult>): Promise<T> {
  const o = await p;
  if (o.status !== 'success') throw new Error(`expected success, got ${JSON.stringify(o)}`);
  return o.data as T;
}

/** Failures of a tool that ran: it failed, ran out of time or was cancelled (not a refusal before it ran). */
const RAN_AND_FAILED = new Set(['TOOL_EXECUTION_ERROR', 'TOOL_TIMEOUT', 'CANCELLED']);

/** The message of a tool that ran and failed; fails the test otherwise. */
export async function toolError(p: Promise<ToolResult>): Promise<{ message: string; type: string; details: unknown }> {
  const o = await p;
  if (o.status !== 'error' || !RAN_AND_FAILED.has(o.error.type))
    throw new Error(`expected a tool error, got ${JSON.stringify(o)}`);
  return { message: o.error.message, type: o.error.type, details: o.error.details };
}

/** The validation issues of a call whose arguments were refused; fails the test otherwise. */
export function refusedIssues(o: ToolResult): { path: string; message: string }[] {
  if (o.status !== 'error' || o.error.type !== 'INVALID_ARGUMENTS')
    throw new Error(`expected INVALID_ARGUMENTS, got ${JSON.stringify(o)}`);
  return o.error.details.validation_errors;
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
  opts: { ownDb?: boolean; startTimeoutMs?: number } = {},
): T {
  let node: T;
  let drop = async (): Promise<void> => undefined;
  beforeAll(async () => {
    const db = opts.ownDb === false ? { env: {}, drop } : await realDbEnv();
    drop = db.drop;
    node = await start(db.env);
  }, opts.startTimeoutMs);
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
