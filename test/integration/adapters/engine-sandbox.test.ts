import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNgspice } from '../../../actors/adapters/circuit/ngspice.ts';

/**
 * Engines run sandboxed (README "Engine sandbox"). These cases go through the real spawn path of the circuit adapter,
 * `runNgspice`, with a `*ng_script` netlist whose `shell` lines run commands: the netlist filter is bypassed on purpose,
 * so what they prove is the sandbox alone (defence in depth). A marker written in the scratch folder proves the shell
 * lines ran at all.
 */

/**
 * ngspice 46 (bookworm-backports, which KiCad 9's libngspice0 brings) lower-cases a `shell` line before it runs it: every
 * path and word the lines use is lower case (folders named by a UUID, not mkdtemp's mixed-case suffix).
 */
const lowerDir = (prefix: string) => {
  const dir = path.join(fs.realpathSync(os.tmpdir()), `${prefix}${crypto.randomUUID()}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};
const root = lowerDir('sandbox-ws-');
const outside = lowerDir('sandbox-outside-');
const scratch = path.join(root, 'calls', 'circuit.run_simulation', crypto.randomUUID());
let server: net.Server;
let port = 0;

beforeAll(async () => {
  fs.mkdirSync(scratch, { recursive: true });
  server = net.createServer((s) => s.on('error', () => undefined).end('hello\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
  // A probe the sandboxed shell runs with a copy of this very node, placed in the scratch folder: the sandbox hides a
  // node under /tmp (a checkout there, as .ci/run's clone) behind its private /tmp. It connects to the test's own
  // listener on the host loopback.
  fs.copyFileSync(fs.realpathSync(process.execPath), path.join(scratch, 'node'));
  fs.chmodSync(path.join(scratch, 'node'), 0o755);
  fs.writeFileSync(
    path.join(scratch, 'probe.cjs'),
    `require('net').connect(${port}, '127.0.0.1')` +
      `.on('connect', () => { console.log('NET:connected'); process.exit(0); })` +
      `.on('error', (e) => { console.log('NET:' + e.code); process.exit(0); });\n`,
  );
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

/** Runs a control script through runNgspice in the scratch folder; returns its stdout. */
async function ngScript(lines: string[]): Promise<string> {
  fs.writeFileSync(
    path.join(scratch, 'netlist.cir'),
    ['*ng_script', ...lines.map((l) => `shell ${l}`), '.end', ''].join('\n'),
  );
  const run = await runNgspice('/usr/bin/ngspice', {
    cwd: scratch,
    netlist: 'netlist.cir',
    raw: 'out.raw',
    signal: AbortSignal.timeout(20_000),
  });
  return run.stdout;
}

const between = (text: string, tag: string) => text.split(`begin-${tag}`)[1]?.split(`end-${tag}`)[0] ?? '';

describe('an engine subprocess in the sandbox', () => {
  it('writes its scratch folder but nothing outside it: not the workspace, not another folder, not /tmp', async () => {
    const tmpTarget = path.join('/tmp', `sandbox-escape-${crypto.randomUUID()}`);
    const varTarget = path.join('/var/tmp', `sandbox-escape-${crypto.randomUUID()}`);
    await ngScript([
      `touch ${path.join(scratch, 'inside')}`,
      `touch ${path.join(outside, 'escaped')}`,
      `touch ${path.join(root, 'escaped')}`,
      `mkdir ${path.join(root, 'calls', 'escaped-dir')}`,
      `touch ${tmpTarget}`,
      `touch ${varTarget}`,
    ]);
    expect(fs.existsSync(path.join(scratch, 'inside'))).toBe(true);
    expect(fs.existsSync(path.join(outside, 'escaped'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'escaped'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'calls', 'escaped-dir'))).toBe(false);
    const escaped = [tmpTarget, varTarget].filter((f) => fs.existsSync(f));
    for (const f of escaped) fs.rmSync(f, { force: true });
    expect(escaped).toEqual([]);
  });

  it('has no network: only a loopback interface, and the host loopback is unreachable', async () => {
    const out = await ngScript([
      'echo begin-net',
      'cat /proc/net/dev',
      'echo end-net',
      `${path.join(scratch, 'node')} probe.cjs`,
    ]);
    const interfaces = [...between(out, 'net').matchAll(/^\s*([^\s:|]+):/gm)].map((m) => m[1]);
    expect(interfaces).toEqual(['lo']);
    expect(out).toMatch(/NET:\w+/);
    expect(out).not.toContain('NET:connected');
  });

  it('sees no other process: /proc lists only its own PID namespace', async () => {
    const out = await ngScript(['echo begin-proc', 'ls /proc', 'echo end-proc']);
    const pids = between(out, 'proc')
      .split(/\s+/)
      .filter((x) => /^\d+$/.test(x))
      .map(Number);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids).not.toContain(process.pid);
    // bwrap's init, ngspice, the shell and ls: a handful of low ids in a namespace of its own.
    expect(pids.length).toBeLessThan(10);
    expect(Math.max(...pids)).toBeLessThan(20);
  });
});
