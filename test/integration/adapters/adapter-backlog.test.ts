import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { createBroker, type BrokerHandle } from '../../../brokers/broker.ts';
import { loadConfig } from '../../../brokers/config.ts';
import type { ServiceFactory } from '../../../brokers/infra.ts';
import { boardOf } from '../../../brokers/load-board.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { defineTool } from '../../../actors/adapters/kit/tool.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { adapterActions, TOOLCALL_CANCEL_EVENT } from '../../../contracts/actions/adapters.actions.ts';
import { natsClusterEnv } from '../../support/servers.ts';
import { callTool, invokeViaRegistry } from '../../support/tools.ts';

const servers = inject('servers');
const ADAPTER = 'backlogtest';

/** Each run of the tool: its key and the node it ran on. A run waits until the test opens its key's gate. */
const runs: { key: string; node: string }[] = [];
const gates = new Map<string, () => void>();
const gate = (key: string) => new Promise<void>((resolve) => gates.set(key, resolve));
const open = (key: string) => gates.get(key)!();
const ranOn = (key: string) => runs.filter((r) => r.key === key).map((r) => r.node);

const holdTool = defineTool({
  name: 'hold',
  description: 'runs until the test opens its gate',
  input: z.object({ key: z.string() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ key }, tc) => {
    const wait = gate(key);
    runs.push({ key, node: tc.ctx.broker.nodeID });
    await wait;
    return { key };
  },
});

/**
 * Two adapter nodes limited to one call each, and a caller node with the registry, on the real NATS bus: the second
 * call to a busy node is refused at once (retryable, before the tool starts); a refused call runs on the other replica,
 * once; with both busy it waits (service_tool_calls_waiting) and runs when a slot frees.
 */
describe.runIf(servers.nats)('adapter concurrency limit and balancing on NATS', () => {
  let caller: BrokerHandle;
  let a: BrokerHandle;
  let b: BrokerHandle;
  const invoke = (node: string, key: string) =>
    call(
      caller.broker,
      adapterActions(ADAPTER).invoke,
      {
        tool_id: `${ADAPTER}.hold`,
        arguments: { key },
        call_id: `c-${crypto.randomUUID()}`,
        timeout_ms: 60_000,
        caller: { kind: 'stdio', transport: 'stdio' },
      },
      { nodeID: node },
    );
  const started = (key: string) => vi.waitFor(() => expect(ranOn(key)).toHaveLength(1), { timeout: 10_000 });

  beforeAll(async () => {
    const env = { ...natsClusterEnv(), SERVICE_DATA_DIR: 'memory://', SERVICE_LOG_LEVEL: 'warn' };
    const log = createRootLogger({ level: 'warn', toStderr: true });
    const node = (name: string, services: ServiceFactory[]) => {
      const config = loadConfig({ ...env, SERVICE_NODE_ID: `${name}-${crypto.randomBytes(3).toString('hex')}` });
      return createBroker({
        roles: [{ name, doc: name, services }],
        transporter: config.SERVICE_TRANSPORTER,
        config,
        log,
      });
    };
    const adapter = createAdapterService({
      id: ADAPTER,
      version: '0.0.1',
      capability: 'test',
      tools: [holdTool],
      concurrency: () => 1,
    });
    caller = node('caller', [createToolsService]);
    a = node('a', [adapter]);
    b = node('b', [adapter]);
    await Promise.all([caller.broker.start(), a.broker.start(), b.broker.start()]);
    await vi.waitFor(
      () =>
        expect(
          caller.broker.registry
            .getActionEndpoints(`adapters.${ADAPTER}.invoke`)
            ?.endpoints.map((e) => e.id)
            .sort(),
        ).toEqual([a.broker.nodeID, b.broker.nodeID].sort()),
      { timeout: 15_000, interval: 50 },
    );
  }, 30_000);
  afterAll(async () => {
    for (const key of gates.keys()) open(key);
    for (const h of [caller, a, b]) await h?.stop().catch(() => undefined);
  });

  it('refuses the call past the limit at once, retryably, before its tool starts, while the first runs', async () => {
    const first = invoke(a.broker.nodeID, 'r1');
    await started('r1');
    const refused = await invoke(a.broker.nodeID, 'r2').catch((err: unknown) => err);
    expect(refused).toMatchObject({
      type: 'QUEUE_FULL',
      retryable: true,
      data: { adapter_id: ADAPTER, node_id: a.broker.nodeID, in_flight: 1, limit: 1 },
    });
    expect(ranOn('r2')).toEqual([]);
    open('r1');
    await expect(first).resolves.toMatchObject({ status: 'success', data: { key: 'r1' } });
    const metrics = await a.infra.metrics.registry.metrics();
    expect(metrics).toContain(`service_tool_calls_refused_total{adapter="${ADAPTER}",node="${a.broker.nodeID}"} 1`);
    expect(metrics).toContain(`service_tool_call_duration_seconds_count{tool="${ADAPTER}.hold",status="success"} 1`);
  });

  it('sends a refused call to the other replica, where it runs exactly once', async () => {
    const busy = invoke(a.broker.nodeID, 'm1');
    await started('m1');
    // The caller's view is stale: b looks busier than a, so the strategy sends the call to a, which is full.
    const board = boardOf(caller.broker)!;
    board.report({ adapter_id: ADAPTER, node_id: b.broker.nodeID, in_flight: 5, limit: 10 });
    expect(board.pick(ADAPTER, [a.broker.nodeID, b.broker.nodeID])).toBe(a.broker.nodeID);
    const refusedBefore = await refusedOn(a);
    const moved = callTool(caller.broker, `${ADAPTER}.hold`, { key: 'm2' });
    await started('m2');
    expect(ranOn('m2')).toEqual([b.broker.nodeID]);
    expect(await refusedOn(a)).toBe(refusedBefore + 1);
    open('m2');
    await expect(moved).resolves.toMatchObject({ status: 'success', data: { key: 'm2' } });
    open('m1');
    await busy;
    expect(ranOn('m2')).toEqual([b.broker.nodeID]);
  });

  it('with every replica full, waits (service_tool_calls_waiting) and runs once when a slot frees', async () => {
    const onA = invoke(a.broker.nodeID, 'w1');
    const onB = invoke(b.broker.nodeID, 'w2');
    await started('w1');
    await started('w2');
    const waiting = callTool(caller.broker, `${ADAPTER}.hold`, { key: 'w3' }, {});
    const board = boardOf(caller.broker)!;
    await vi.waitFor(() => expect(board.waiting(ADAPTER)).toBe(1), { timeout: 10_000, interval: 20 });
    expect(await caller.infra.metrics.registry.metrics()).toContain(
      `service_tool_calls_waiting{adapter="${ADAPTER}"} 1`,
    );
    expect(ranOn('w3')).toEqual([]);
    open('w1');
    await onA;
    await started('w3');
    expect(ranOn('w3')).toEqual([a.broker.nodeID]);
    expect(board.waiting(ADAPTER)).toBe(0);
    open('w3');
    open('w2');
    await expect(waiting).resolves.toMatchObject({ status: 'success', data: { key: 'w3' } });
    await onB;
    expect(ranOn('w3')).toEqual([a.broker.nodeID]);
  });

  it('answers CANCELLED to a client cancel of a call waiting for a slot, which then never runs', async () => {
    const onA = invoke(a.broker.nodeID, 'x1');
    const onB = invoke(b.broker.nodeID, 'x2');
    await started('x1');
    await started('x2');
    const callId = `c-${crypto.randomUUID()}`;
    const waiting = invokeViaRegistry(caller.broker, `${ADAPTER}.hold`, { key: 'x3' }, {}, { call_id: callId });
    const board = boardOf(caller.broker)!;
    await vi.waitFor(() => expect(board.waiting(ADAPTER)).toBe(1), { timeout: 10_000, interval: 20 });
    await caller.broker.broadcast(TOOLCALL_CANCEL_EVENT, { call_id: callId, reason: 'changed my mind' });
    await expect(waiting).resolves.toMatchObject({
      status: 'error',
      error: { type: 'CANCELLED', message: 'call cancelled: changed my mind' },
    });
    expect(board.waiting(ADAPTER)).toBe(0);
    open('x1');
    open('x2');
    await Promise.all([onA, onB]);
    expect(ranOn('x3')).toEqual([]);
  });
});

async function refusedOn(h: BrokerHandle): Promise<number> {
  const m = (await h.infra.metrics.registry.getSingleMetric('service_tool_calls_refused_total')?.get())?.values ?? [];
  return m.find((v) => v.labels.node === h.broker.nodeID)?.value ?? 0;
}
