import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';
import { natsClusterEnv } from '../../support/servers.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData, toolError } from '../../support/tools.ts';
import { warmUp } from './cad-support.ts';

const servers = inject('servers');

/**
 * The session actor on another node, over the real NATS bus and PostgreSQL: the adapter node holds no session state;
 * when the node serving the session stops, a new node takes the session over from its history in Postgres.
 */
describe.runIf(servers.nats && servers.pg)('CAD sessions across nodes on NATS', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let ws: string;
  const nodes: TestNode[] = [];
  const start = async (roles: string) => {
    const n = await startTestNode({ roles, env });
    nodes.push(n);
    return n;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cad-cluster-'));
    env = { ...natsClusterEnv(), SERVICE_DATABASE_URL: db.url, SERVICE_WORKSPACE: ws, SERVICE_CAD_THREADS: '1' };
  });
  afterAll(async () => {
    for (const n of nodes.reverse()) await n.stop().catch(() => undefined);
    await db?.drop();
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('serves session tools from the actor node and continues a session on a new node after the first one stops', async () => {
    const first = await start('cadsessions');
    const front = await start('tools,adapter:cadkernel');
    await front.node.broker.waitForServices(['cadsessions', 'adapters.cadkernel']);
    await warmUp(front, 'cadkernel.get_properties');
    const tool = (name: string, args: Record<string, unknown>) =>
      callTool(front.node.broker, `cadkernel.${name}`, args);

    const sid = (await okData(tool('open_session', { name: 'cluster' }))).session_id as string;
    await okData(
      tool('create_primitive', {
        session_id: sid,
        shape_type: 'plate',
        parameters: { length: 100, width: 40, thickness: 10, fillet: 2, hole_count: 2 },
      }),
    );
    const exp = await okData(tool('export_model', { session_id: sid, material: 'aluminium' }));
    expect(exp.stored_properties.volume_mm3).toBeCloseTo(38930.183, 2);
    expect(
      (await toolError(tool('fillet_edges', { session_id: sid, object_id: 'part_1', radius: 30 }))).message,
    ).toMatch(/fillet 30 mm (failed|produced no valid solid)/);
    expect((await toolError(tool('measure', { session_id: crypto.randomUUID() }))).details).toMatchObject({
      code: 'unknown_session',
    });

    await first.stop();
    const second = await start('cadsessions');
    await front.node.broker.waitForServices(['cadsessions']);
    const moved = await okData(
      tool('transform_object', { session_id: sid, object_id: 'part_1', translate: [0, 0, 5] }),
    );
    expect(moved).toMatchObject({
      verified: true,
      feature_count: 2,
      bounding_box: { min: [-50, -20, 5], max: [50, 20, 15] },
    });
    const described = await okData(tool('describe_session', { session_id: sid }));
    expect(described.features.map((f: { op: string }) => f.op)).toEqual(['create_primitive', 'transform_object']);
    expect(second.node.broker.nodeID).not.toBe(first.node.broker.nodeID);
  }, 120_000);
});
