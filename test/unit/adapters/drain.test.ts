import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { defineTool } from '../../../actors/adapters/kit/tool.ts';
import { call } from '../../../brokers/actions.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { startActors } from '../../support/actors.ts';

/**
 * Issue 20 on a real broker: a stopping node's adapter finishes the call it is running, refuses new calls before they
 * start (retryable), and aborts what still runs at the drain deadline. The tool is the only fake: it runs until released.
 */
function gatedAdapter() {
  let release!: (v: { done: true }) => void;
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const gate = new Promise<{ done: true }>((r) => (release = r));
  const tool = defineTool({
    name: 'wait',
    description: 'runs until the test releases it',
    input: z.object({}),
    async handler(_args, tc) {
      started();
      return Promise.race([
        gate,
        new Promise<never>((_, reject) => tc.signal.addEventListener('abort', () => reject(tc.signal.reason))),
      ]);
    },
  });
  const service = createAdapterService({ id: 'gated', version: '0.0.1', capability: 'test', tools: [tool] });
  return { service, running, release: () => release({ done: true }) };
}

const invoke = (h: Awaited<ReturnType<typeof startActors>>, callId: string) =>
  call(h.broker, adapterActions('gated').invoke, {
    tool_id: 'gated.wait',
    arguments: {},
    call_id: callId,
    timeout_ms: 600_000,
    caller: { kind: 'stdio', transport: 'stdio' },
  });

describe('adapter drain on stop', () => {
  it('lets the running call finish, refuses a new one retryably before it runs, then stops', async () => {
    const g = gatedAdapter();
    const h = await startActors([g.service], { SERVICE_DRAIN_TIMEOUT_MS: '600000' });
    const first = invoke(h, 'first');
    await g.running;
    const stopped = h.stop();
    const refused = await invoke(h, 'second').then(
      () => undefined,
      (err: unknown) => err as { type: string; retryable: boolean },
    );
    expect(refused).toMatchObject({ type: 'SERVICE_NOT_AVAILABLE', retryable: true });
    g.release();
    expect(await first).toMatchObject({ status: 'success', data: { done: true } });
    await stopped;
    expect(h.broker.started).toBe(false);
  });

  it('aborts a call still running at the deadline and answers TOOL_UNAVAILABLE, which may be run again', async () => {
    const g = gatedAdapter();
    const h = await startActors([g.service], { SERVICE_DRAIN_TIMEOUT_MS: '0' });
    const first = invoke(h, 'first');
    await g.running;
    await h.stop();
    expect(await first).toMatchObject({
      status: 'error',
      error: { type: 'TOOL_UNAVAILABLE', details: 'draining', message: expect.stringContaining('may be run again') },
    });
  });
});
