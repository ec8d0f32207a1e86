import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_ROLES } from '../support/approvals.ts';
import { SERVICE_BIN, spawnService, type SpawnedService } from '../support/spawn.ts';
import { realDbEnv } from '../support/tools.ts';

const NODE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/approvals-node.ts');
const TOKEN = 'cli-token-0123456789abcdef';
let node: SpawnedService;
let url = '';
let drop: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  const db = await realDbEnv();
  drop = db.drop;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'approvals-cli-'));
  fs.writeFileSync(path.join(dir, 'tokens.json'), JSON.stringify({ [TOKEN]: 'carol@example.com' }), { mode: 0o600 });
  node = spawnService(['--roles', APPROVAL_ROLES, '--port', '0'], { SERVICE_DATA_DIR: 'memory://', ...db.env }, NODE);
  url = `http://127.0.0.1:${(await node.waitFor('mcp_http_ready', 60_000)).port}`;
});
afterAll(async () => {
  await node?.kill();
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `service approvals ...` as its own process (no broker in it) against the spawned node. */
function cli(
  args: string[],
  env: Record<string, string> = {},
  base = url,
): Promise<{ code: number | null; out: string; err: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SERVICE_APPROVAL_') && k !== 'SERVICE_AUTH_TOKEN'),
  );
  const p = spawn(process.execPath, [SERVICE_BIN, 'approvals', ...args, '--url', base], { env: { ...clean, ...env } });
  let out = '';
  let err = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => p.once('exit', (code) => resolve({ code, out, err })));
}
const post = async (p: string, body: unknown, headers: Record<string, string> = {}) =>
  (
    await fetch(`${url}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
  ).json() as Promise<Record<string, any>>;

/** A sketch imported over HTTP into a new project: a pending sketch approval. */
async function sketch(): Promise<{ project: string; id: string }> {
  const project = (await post('/v1/projects', { name: `cli ${Date.now()}` })).id as string;
  const form = new FormData();
  form.append('file', new Blob(['0\nSECTION\n0\nEOF\n']), 'profile.dxf');
  form.append('wp_type', 'sketch');
  form.append('project_id', project);
  const r = (await (await fetch(`${url}/v1/twin/import`, { method: 'POST', body: form })).json()) as {
    node_id: string;
  };
  return { project, id: `sketch:${r.node_id}` };
}

describe('service approvals (the CLI against a running node)', () => {
  it('lists as a table or JSON, shows one item, decides with surface cli, and says what happened in its exit code', async () => {
    const { project, id } = await sketch();
    const run = await post('/v1/runs', {
      design_flow: 'mech_v1',
      project_id: project,
      goal: 'a bracket for the CLI test',
    });
    await expect
      .poll(async () => (await cli(['list', '--project', project, '--kind', 'gate'])).out, {
        timeout: 20_000,
        interval: 200,
      })
      .toContain(`gate:${run.id}`);

    const table = await cli(['list', '--project', project]);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/^ID\s+KIND\s+STATUS\s+PROJECT\s+DECIDE\s+TITLE/);
    expect(table.out).toContain(`${id}`);
    expect(table.out).toMatch(/2 items/);
    const json = await cli(['list', '--project', project, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({
      unscoped_count: expect.any(Number),
      items: expect.arrayContaining([expect.objectContaining({ id, kind: 'sketch', status: 'pending' })]),
    });

    const show = await cli(['show', `gate:${run.id}`]);
    expect(show.code).toBe(0);
    expect(show.out).toContain('decidable    yes: approve, reject, retry');
    expect(show.out).toContain('reason for   reject, retry');

    const decided = await cli(['decide', id, 'approve']);
    expect(decided.code, decided.err).toBe(0);
    expect(decided.out).toContain(`approve recorded on ${id} by local:dashboard via cli; it is now approved`);
    expect(JSON.parse((await cli(['show', id, '--json'])).out).decision).toMatchObject({
      decision: 'approve',
      approver: 'local:dashboard',
      surface: 'cli',
    });
    expect((await cli(['decide', id, 'approve'])).code).toBe(4);
    const again = await cli(['decide', id, 'approve', '--json']);
    expect(JSON.parse(again.out).error.code).toBe('CONFLICT');
    expect((await cli(['decide', `gate:${run.id}`, 'reject'])).code).toBe(5);
    expect((await cli(['show', 'gate:run_nope'])).code).toBe(3);
    expect((await cli(['decide', `gate:${run.id}`, 'maybe'])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
    const rejected = await cli(['decide', `gate:${run.id}`, 'reject', '--reason', 'wrong part']);
    expect(rejected.out).toContain('it is now rejected');
  });

  it('names the gate it decides: show prints phase, attempt and ETag; a decide naming a gate no longer open exits 4 and records nothing', async () => {
    const run = await post('/v1/runs', {
      design_flow: 'mech_v1',
      project_id: 'p-cli-target',
      goal: 'a bracket for the target test',
    });
    await expect
      .poll(async () => JSON.parse((await cli(['show', `gate:${run.id}`, '--json'])).out || '{}').status, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe('pending');
    const show = await cli(['show', `gate:${run.id}`]);
    expect(show.out).toContain('gate         intent attempt 1 (decide it with --phase intent --attempt 1)');
    const etag = /etag {9}("[^"]+")/.exec(show.out)?.[1];
    expect(etag).toBeTruthy();
    const approved = await cli(['decide', `gate:${run.id}`, 'approve']);
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toContain(`approve recorded on gate:${run.id} (gate intent attempt 1)`);
    await expect
      .poll(async () => JSON.parse((await cli(['show', `gate:${run.id}`, '--json'])).out).detail.phase, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe('needs');
    for (const target of [
      ['--phase', 'intent', '--attempt', '1'],
      ['--if-match', etag!],
    ]) {
      const stale = await cli(['decide', `gate:${run.id}`, 'reject', '--reason', 'meant Intent', ...target]);
      expect(stale.code, stale.err).toBe(4);
      expect(stale.err).toMatch(/open gate is needs attempt 1/);
    }
    expect((await cli(['decide', `gate:${run.id}`, 'approve', '--attempt', '0'])).code).toBe(2);
    const runNow = (await (await fetch(`${url}/v1/runs/${run.id}`)).json()) as Record<string, any>;
    expect(runNow.status).toBe('awaiting_approval');
    expect(runNow.decisions).toHaveLength(1);
  });

  it('sends the three agent headers when both agent variables are set, and the token when SERVICE_AUTH_TOKEN is', async () => {
    const { id } = await sketch();
    const out = await cli(['decide', id, 'approve', '--json'], {
      SERVICE_APPROVAL_AGENT: 'copilot',
      SERVICE_APPROVAL_ON_BEHALF_OF: 'dave@example.com',
      SERVICE_AUTH_TOKEN: TOKEN,
    });
    expect(out.code, out.err).toBe(0);
    expect(JSON.parse(out.out).decision).toMatchObject({
      approver: 'dave@example.com',
      approver_verified: false,
      surface: 'agent',
      on_behalf_of: 'dave@example.com',
      agent: 'copilot',
    });
    const half = await sketch();
    const onlyAgent = await cli(['decide', half.id, 'approve', '--json'], { SERVICE_APPROVAL_AGENT: 'copilot' });
    expect(JSON.parse(onlyAgent.out).decision).toMatchObject({ surface: 'cli', agent: null });
  });

  it('logs identity fields of a body as ignored, and exits 7 when no gateway answers', async () => {
    const { id } = await sketch();
    await post(`/v1/approvals/${id}/decision`, { decision: 'approve', approved_by: 'mallory' });
    const line = await node.waitFor('approval_body_identity_ignored');
    expect(line).toMatchObject({ fields: ['approved_by'] });
    const gone = spawn(process.execPath, [SERVICE_BIN, 'approvals', 'list', '--url', 'http://127.0.0.1:9']);
    expect(await new Promise((r) => gone.once('exit', r))).toBe(7);
  });

  it('authenticates with SERVICE_AUTH_TOKEN against a gateway with a token file (exit 6 without it), and refuses a file others can read', async () => {
    const file = path.join(dir, 'tokens.json');
    const secured = spawnService(['--roles', 'gateway,approvals,twin,holds,projects', '--port', '0'], {
      SERVICE_DATA_DIR: 'memory://',
      SERVICE_AUTH_TOKENS_PATH: file,
    });
    try {
      const base = `http://127.0.0.1:${(await secured.waitFor('mcp_http_ready', 60_000)).port}`;
      expect((await cli(['list'], {}, base)).code).toBe(6);
      const ok = await cli(['list'], { SERVICE_AUTH_TOKEN: TOKEN }, base);
      expect(ok.code, ok.err).toBe(0);
    } finally {
      await secured.kill();
    }
    const open = path.join(dir, 'open.json');
    fs.writeFileSync(open, JSON.stringify({ [TOKEN]: 'carol' }), { mode: 0o644 });
    fs.chmodSync(open, 0o644);
    const refused = spawnService(['--roles', 'gateway', '--port', '0'], {
      SERVICE_DATA_DIR: 'memory://',
      SERVICE_AUTH_TOKENS_PATH: open,
    });
    expect(await refused.exited).toBe(2);
    expect(refused.stderr()).toContain('chmod 600');
  }, 120_000); // three service processes start one after another: a budget for slow starts, not a speed check
});
