import type { ServiceSchema } from 'moleculer';
import { afterEach, describe, expect, it } from 'vitest';
import { createConformanceAdapter } from '../../../actors/adapters/conformance/conformance.adapter.ts';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { defineTool } from '../../../actors/adapters/kit/tool.ts';
import { action, call } from '../../../brokers/actions.ts';
import { createBroker, type BrokerHandle } from '../../../brokers/broker.ts';
import { loadConfig } from '../../../brokers/config.ts';
import type { ServiceFactory } from '../../../brokers/infra.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { CallerChannel } from '../../../contracts/actions/gateway.actions.ts';
import { z } from 'zod';

const SUITE_NAMES = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_error_handling',
  'test_tool_with_progress',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
];

let handle: BrokerHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

/** A real broker (no transporter) hosting the given actors; the gateway, where needed, is the test's own stand-in. */
async function brokerWith(...services: ServiceFactory[]) {
  handle = createBroker({
    roles: [{ name: 'test', doc: 'test', services }],
    config: loadConfig({ SERVICE_LOG_LEVEL: 'fatal' }),
    log: createRootLogger({ level: 'fatal' }),
  });
  await handle.broker.start();
  return handle.broker;
}

/** The gateway's callback actions, recording progress; each report is held until the test releases it. */
function recordingGateway() {
  const progress: number[] = [];
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const factory: ServiceFactory = (): ServiceSchema => ({
    name: 'gateway',
    actions: {
      toolProgress: action(CallerChannel.progress, async (p) => {
        progress.push(p.progress);
        await released;
        return { delivered: true };
      }),
    },
  });
  return { factory, progress, release };
}

const invokeParams = (broker: { nodeID: string }, tool_id: string) => ({
  tool_id,
  arguments: {},
  call_id: `call_${tool_id}`,
  timeout_ms: 5000,
  caller: { kind: 'remote' as const, transport: 'http' as const },
  progress_node: broker.nodeID,
});

describe('the conformance fixture adapter', () => {
  it('announces the suite names as bare names, read-only, each with a description, under canonical ids', async () => {
    const broker = await brokerWith(createConformanceAdapter);
    const m = await call(broker, adapterActions('conformance').manifest, {});
    expect(m.tools.map((t) => t.name).sort()).toEqual([...SUITE_NAMES].sort());
    for (const t of m.tools) {
      expect(t.tool_id).toBe(`conformance.${t.name}`);
      expect(t.bare_name).toBe(true);
      expect(t.annotations.readOnlyHint, t.name).toBe(true);
      expect(t.description.length).toBeGreaterThan(10);
    }
  });

  it('answers only after its progress reports reached the caller node, so the result never overtakes them', async () => {
    const gw = recordingGateway();
    const broker = await brokerWith(createConformanceAdapter, gw.factory);
    let settled = false;
    const result = call(
      broker,
      adapterActions('conformance').invoke,
      invokeParams(broker, 'conformance.test_tool_with_progress'),
    ).finally(() => {
      settled = true;
    });
    await expect.poll(() => gw.progress.length, { timeout: 3000 }).toBe(3);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    gw.release();
    await expect(result).resolves.toMatchObject({ status: 'success' });
    expect(gw.progress).toEqual([0, 0.5, 1]);
  });
});

describe('adapter kit: annotations a tool declares', () => {
  const tool = (name: string) =>
    defineTool({
      name,
      description: 'declares itself read-only',
      input: z.object({}),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: async () => ({}),
    });

  it('apply to a tool the catalogue does not classify, and never override the catalogue', async () => {
    const broker = await brokerWith(
      createAdapterService({
        id: 'project',
        version: '1',
        capability: 'project',
        tools: [tool('delete'), tool('unlisted')],
      }),
    );
    const m = await call(broker, adapterActions('project').manifest, {});
    const byName = new Map(m.tools.map((t) => [t.name, t]));
    expect(byName.get('delete')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('unlisted')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('unlisted')!.bare_name).toBeUndefined();
  });
});
