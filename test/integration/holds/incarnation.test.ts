import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { createBroker } from '../../../brokers/broker.ts';
import { loadConfig } from '../../../brokers/config.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { startHoldsNode } from '../../support/holds.ts';
import { natsClusterEnv } from '../../support/servers.ts';
import { realDbEnv } from '../../support/tools.ts';

/**
 * A hold belongs to its client's connection (issue 32 point 7, decision 0141): a holds node restarted under the same
 * SERVICE_NODE_ID orphans the held calls of its previous incarnation (the node id alone says it is alive), and when the
 * gateway holding a caller's stream leaves the bus, the holds actor (alive on another node) orphans that caller's holds.
 */
const servers = inject('servers');
let env: Record<string, string>;
let drop: () => Promise<void>;
beforeAll(async () => {
  const db = await realDbEnv();
  // A restart must find the same database: the real server, else an embedded one on disk.
  const dir = db.env.SERVICE_DATABASE_URL ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'holds-incarnation-'));
  env = dir ? { SERVICE_DATA_DIR: dir } : db.env;
  drop = async () => {
    await db.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await drop();
});

const request = (callId: string, progressNode?: string) => ({
  call_id: callId,
  tool_id: 'twin.record_decision',
  arguments: { title: 'x' },
  caller: { kind: 'remote' as const, transport: 'http' as const, client: 'incarnation-test' },
  reason_held: 'writes',
  ...(progressNode ? { progress_node: progressNode } : {}),
});

describe('held calls and the incarnation that waits on them', () => {
  it('a restart under the same node id orphans the previous incarnation’s held calls', async () => {
    const same = { ...env, SERVICE_NODE_ID: `holds-same-${crypto.randomBytes(3).toString('hex')}` };
    const a = await startHoldsNode({ roles: 'holds', env: same });
    const callId = `call_${crypto.randomUUID()}`;
    const held = call(a.node.broker, HoldsActions.request, request(callId)).catch((err: unknown) => err);
    await expect.poll(async () => (await a.pending()).some((r) => r.call_id === callId)).toBe(true);
    const rec = (await a.pending()).find((r) => r.call_id === callId)!;
    await a.stop();
    expect(await held).not.toMatchObject({ outcome: 'approved' });

    const b = await startHoldsNode({ roles: 'holds', env: same });
    try {
      expect(b.node.broker.nodeID).toBe(same.SERVICE_NODE_ID);
      const after = await call(b.node.broker, HoldsActions.get, { id: rec.id });
      expect(after.status).toBe('failed');
      expect(after.error).toMatch(/^orphaned by a restart/);
      // A call the new incarnation holds itself stays held.
      const mine = `call_${crypto.randomUUID()}`;
      const waiting = call(b.node.broker, HoldsActions.request, request(mine)).catch((err: unknown) => err);
      await expect.poll(async () => (await b.pending()).some((r) => r.call_id === mine)).toBe(true);
      const r = (await b.pending()).find((x) => x.call_id === mine)!;
      await call(b.node.broker, HoldsActions.decide, {
        id: r.id,
        decision: 'reject',
        reason: 'test over',
        decider: { approver: 'p', approver_verified: false, surface: 'dashboard', on_behalf_of: null, agent: null },
      });
      expect(await waiting).toMatchObject({ outcome: 'rejected' });
    } finally {
      await b.stop();
    }
  });

  it.runIf(servers.nats)('a gateway that leaves the bus takes its callers’ held calls with it', async () => {
    const bus = { ...env, ...natsClusterEnv() };
    const holds = await startHoldsNode({ roles: 'holds', env: bus });
    const log = createRootLogger({ level: 'warn', toStderr: true });
    const config = loadConfig({ ...bus, SERVICE_NODE_ID: `gw-${crypto.randomBytes(3).toString('hex')}` });
    const gw = createBroker({ roles: [], transporter: config.SERVICE_TRANSPORTER, config, log });
    try {
      await gw.broker.start();
      await gw.broker.waitForServices(['holds'], 20_000);
      const callId = `call_${crypto.randomUUID()}`;
      const other = `call_${crypto.randomUUID()}`;
      // One call whose stream the gateway holds, one from a caller on the holds node itself.
      const held = call(gw.broker, HoldsActions.request, request(callId, gw.broker.nodeID)).catch((e: unknown) => e);
      const stays = call(holds.node.broker, HoldsActions.request, request(other)).catch((e: unknown) => e);
      await expect
        .poll(async () => (await holds.pending()).map((r) => r.call_id).sort(), { timeout: 20_000 })
        .toEqual([callId, other].sort());
      const rec = (await holds.pending()).find((r) => r.call_id === callId)!;

      await gw.stop();
      expect(await held).not.toMatchObject({ outcome: 'approved' });
      await expect
        .poll(async () => (await call(holds.node.broker, HoldsActions.get, { id: rec.id })).status, { timeout: 20_000 })
        .toBe('failed');
      const after = await call(holds.node.broker, HoldsActions.get, { id: rec.id });
      expect(after.error).toContain(gw.broker.nodeID);
      expect((await holds.pending()).map((r) => r.call_id)).toEqual([other]);
      void stays;
    } finally {
      await holds.stop();
    }
  });
});
