import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { currentKernelPool } from '../../../workers/cad/host/shared.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { patientCall } from './cad-support.ts';

// A node with every CAD role starts no OpenCascade thread until a CAD call needs one, and gives it back after
// SERVICE_CAD_IDLE_MS without work (tiny here). Releases are observed through the pool's state (expect.poll on its
// thread count and slot generations), never by sleeping past the period.
let t: TestNode;
let ws: string;
beforeAll(async () => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cad-on-demand-'));
  t = await startTestNode({
    roles: 'gateway,tools,adapter:cadscript,adapter:cadkernel,cadsessions',
    env: { SERVICE_WORKSPACE: ws, SERVICE_CAD_THREADS: '1', SERVICE_CAD_IDLE_MS: '20' },
  });
}, 120_000);
afterAll(async () => {
  await t?.stop();
  fs.rmSync(ws, { recursive: true, force: true });
});

const pool = () => currentKernelPool()!;
const released = () => pool().stats()[0].generation;
const box = (name: string) =>
  patientCall(t, 'cadscript.create_parametric', {
    shape_type: 'box',
    parameters: { length: 10, width: 20, height: 30 },
    output_path: `parts/${name}.step`,
  });

describe('CAD kernel threads on demand', () => {
  it('starts none at node start, nor for health checks', async () => {
    expect(pool().runningThreads()).toBe(0);
    const health = await fetch(`${t.url}/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as { adapters?: { adapter_id: string; reachable: boolean }[] };
    const cad = body.adapters?.filter((a) => a.adapter_id.startsWith('cad'));
    expect(cad?.map((a) => [a.adapter_id, a.reachable]).sort()).toEqual([
      ['cadkernel', true],
      ['cadscript', true],
    ]);
    for (const id of ['cadscript', 'cadkernel'])
      expect(await call(t.node.broker, adapterActions(id).health, {})).toMatchObject({ status: 'healthy' });
    expect(pool().runningThreads()).toBe(0);
    expect(released()).toBe(0);
  });

  it('starts a thread for the first CAD call, releases it when idle, and the next call starts a fresh one', async () => {
    const first = await box('first');
    expect(first).toMatchObject({ status: 'success', data: { volume_mm3: expect.closeTo(6000, 3) } });
    // Generation 1 means the thread that ran the call was released (not crashed: the pool reports those apart).
    await expect.poll(() => [pool().runningThreads(), released()], { timeout: 60_000, interval: 5 }).toEqual([0, 1]);
    const second = await box('second');
    expect(second).toMatchObject({ status: 'success', data: { volume_mm3: expect.closeTo(6000, 3) } });
    await expect.poll(() => [pool().runningThreads(), released()], { timeout: 60_000, interval: 5 }).toEqual([0, 2]);
  }, 180_000);
});
