import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { startHoldsNode } from '../../support/holds.ts';
import { realDbEnv } from '../../support/tools.ts';

let env: Record<string, string>;
let drop: () => Promise<void>;
beforeAll(async () => {
  const db = await realDbEnv();
  // A restart must find the same database: the real server, else an embedded one on disk.
  const dir = db.env.SERVICE_DATABASE_URL ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'holds-restart-'));
  env = dir ? { SERVICE_DATA_DIR: dir } : db.env;
  drop = async () => {
    await db.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await drop();
});

describe('a restart of the holds actor', () => {
  it('turns every held call still awaiting approval into failed, orphaned by the restart; filed requests stay pending', async () => {
    const a = await startHoldsNode({ roles: 'holds', env });
    const callId = `call_${crypto.randomUUID()}`;
    const held = call(a.node.broker, HoldsActions.request, {
      call_id: callId,
      tool_id: 'twin.record_decision',
      arguments: { title: 'x' },
      caller: { kind: 'remote', transport: 'http', client: 'restart-test' },
      reason_held: 'writes',
    }).catch((err: unknown) => err);
    const filed = await call(a.node.broker, HoldsActions.file, {
      kind: 'flow_patch',
      title: 'patch v2',
      project_id: 'p-restart',
    });
    await expect.poll(async () => (await a.pending()).some((r) => r.call_id === callId)).toBe(true);
    const rec = (await a.pending()).find((r) => r.call_id === callId)!;
    await a.stop();
    expect(await held).not.toMatchObject({ outcome: 'approved' });

    const b = await startHoldsNode({ roles: 'holds', env });
    try {
      const after = await call(b.node.broker, HoldsActions.get, { id: rec.id });
      expect(after.status).toBe('failed');
      expect(after.error).toMatch(/^orphaned by a restart/);
      expect(after.error).toContain('can no longer be approved');
      expect((await call(b.node.broker, HoldsActions.get, { id: filed.id })).status).toBe('awaiting_approval');
      await expect(
        call(b.node.broker, HoldsActions.decide, {
          id: rec.id,
          decision: 'approve',
          decider: {
            approver: 'local:dashboard',
            approver_verified: false,
            surface: 'dashboard',
            on_behalf_of: null,
            agent: null,
          },
        }),
      ).rejects.toMatchObject({ type: 'CONFLICT' });
    } finally {
      await b.stop();
    }
  });
});
