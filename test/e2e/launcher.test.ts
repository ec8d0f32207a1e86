import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnService } from '../support/spawn.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe('the service launcher', () => {
  it('exits non-zero on an unknown role and lists the accepted ones', async () => {
    const s = spawnService(['--roles', 'gateway,wizard'], {});
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toMatch(/unknown role wizard; accepted: all, gateway, projects, /);
    for (const role of ['tools', 'twin', 'runs', 'holds', 'approvals', 'adapter:solver'])
      expect(s.stderr()).toContain(role);
  });

  it('exits non-zero on an unknown flag and prints the usage', async () => {
    const s = spawnService(['--frobnicate'], {});
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toContain("Unknown option '--frobnicate'");
    expect(s.stderr()).toContain('--roles <list>');
  });

  it('exits non-zero on an unknown transport or a bad variable', async () => {
    const t = spawnService(['--transport', 'pigeon'], {});
    expect(await t.exited).toBe(2);
    expect(t.stderr()).toContain('accepted: http, sse, stdio');
    const v = spawnService([], { SERVICE_PORT: 'eighty' });
    expect(await v.exited).toBe(2);
    expect(v.stderr()).toContain('SERVICE_PORT');
  });

  it('stops at launch on an unknown profile, listing the valid ones', async () => {
    const s = spawnService(['--profile', 'wizardry'], {});
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toContain(
      'SERVICE_PROFILE: unknown profile; valid profiles: core, mechanical, mechanical_product, simulation, electronics, robotics',
    );
  });

  it('starts embedded on PGlite, logs mcp_http_ready, keeps a project across a restart and drains on SIGTERM', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-data-'));
    dirs.push(dataDir);
    const env = { SERVICE_DATA_DIR: dataDir };

    const first = spawnService(['--port', '0'], env);
    // A first start prepares the database in a child process first (initdb and every migration): generous, not a speed check.
    const ready = await first.waitFor('mcp_http_ready', 120_000);
    expect(ready).toMatchObject({ host: '127.0.0.1', auth_enforced: false });
    const url = `http://127.0.0.1:${ready.port}`;
    const created = await fetch(`${url}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept' }),
    });
    const { id } = (await created.json()) as { id: string };
    expect(await first.kill('SIGTERM')).toBe(0);

    const second = spawnService(['--port', '0'], env);
    const again = await second.waitFor('mcp_http_ready', 60_000);
    const res = await fetch(`http://127.0.0.1:${again.port}/v1/projects/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, name: 'kept' });
    expect(await second.kill('SIGTERM')).toBe(0);
  }, 240_000);
});
