import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnEngine } from '../../../actors/adapters/kit/engines/spawn.ts';
import { bwrapArgs, BWRAP_MISSING, engineCommand } from '../../../actors/adapters/kit/sandbox.ts';
import { ToolUnavailableError } from '../../../actors/adapters/kit/tool.ts';

/**
 * Decision 0095: the engine sandbox gives every engine a private, empty /tmp, which hid the service's own scripts
 * (actors/adapters/eda/pcbnew/*.py) from KiCad's python whenever the checkout itself lived under /tmp. The service's
 * script folders are bound read-only at their own paths after that /tmp. Here a script folder and a scratch folder are
 * two unrelated folders under /tmp, as a checkout under /tmp and a workspace there are, and the real bwrap runs.
 */
const made: string[] = [];
const mkdtemp = (prefix: string) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join('/tmp', prefix)));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const scripts = mkdtemp('engine-scripts-');
const script = path.join(scripts, 'hello.sh');
fs.writeFileSync(
  script,
  'echo "script ran in $PWD"\ntouch "$(dirname "$0")/written" 2>/dev/null && echo wrote || echo read-only\n',
);

const run = async (scratch: string, readOnly?: string[]) => {
  const cmd = await engineCommand('/bin/sh', [script], { scratch, missing: 'no sh', mode: 'bwrap', readOnly });
  return spawnEngine(cmd, { cwd: scratch, signal: new AbortController().signal });
};

describe('the service scripts inside the engine sandbox (decision 0095)', () => {
  it('without the bind, a script of a service under /tmp is hidden by the private /tmp (the defect)', async () => {
    const r = await run(mkdtemp('engine-scratch-'));
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('script ran');
    expect(r.stderr).toMatch(/No such file|can't open/i);
  });

  it('with its folder bound, the script runs, and it cannot write there', async () => {
    const scratch = mkdtemp('engine-scratch-');
    const r = await run(scratch, [scripts]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([`script ran in ${scratch}`, 'read-only']);
    expect(fs.existsSync(path.join(scripts, 'written'))).toBe(false);
  });

  it('a scratch folder inside a bound folder stays writable (the scratch bind comes last)', async () => {
    const scratch = path.join(scripts, 'scratch');
    fs.mkdirSync(scratch);
    const cmd = await engineCommand('/bin/sh', ['-c', 'echo made > out.txt && cat out.txt'], {
      scratch,
      missing: 'no sh',
      mode: 'bwrap',
      readOnly: [scripts],
    });
    const r = await spawnEngine(cmd, { cwd: scratch, signal: new AbortController().signal });
    expect([r.exitCode, r.stdout.trim(), r.stderr]).toEqual([0, 'made', '']);
    expect(fs.readFileSync(path.join(scratch, 'out.txt'), 'utf8')).toBe('made\n');
  });

  it('binds read-only after the private /tmp and before the writable scratch', () => {
    const args = bwrapArgs('/bin/true', [], '/tmp/s/x', '/tmp/s/x', {}, ['/tmp/repo/scripts']);
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, k) => args[i + k] === s));
    expect(at('--tmpfs', '/tmp')).toBeGreaterThan(-1);
    expect(at('--ro-bind', '/tmp/repo/scripts', '/tmp/repo/scripts')).toBeGreaterThan(at('--tmpfs', '/tmp'));
    expect(at('--bind', '/tmp/s/x', '/tmp/s/x')).toBeGreaterThan(at('--ro-bind', '/tmp/repo/scripts'));
  });
});

describe('bwrap is looked up once per PATH', () => {
  const saved = process.env.PATH;
  afterAll(() => {
    process.env.PATH = saved;
  });

  it('a PATH without bwrap is TOOL_UNAVAILABLE naming bubblewrap, and the real one is found again after', async () => {
    const scratch = mkdtemp('engine-scratch-');
    const empty = mkdtemp('engine-path-');
    process.env.PATH = empty;
    const err = await engineCommand('/bin/true', [], { scratch, missing: 'x', mode: 'bwrap' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ToolUnavailableError);
    expect((err as Error).message).toBe(BWRAP_MISSING);
    process.env.PATH = saved;
    const cmd = await engineCommand('/bin/true', [], { scratch, missing: 'x', mode: 'bwrap' });
    expect(cmd.sandboxed).toBe(true);
  });

  it('a stand-in bwrap first on a new PATH is used, and its lookup is cached for that PATH', async () => {
    const scratch = mkdtemp('engine-scratch-');
    const bin = mkdtemp('engine-path-');
    const standIn = path.join(bin, 'bwrap');
    fs.writeFileSync(standIn, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    process.env.PATH = `${bin}:${saved}`;
    const first = await engineCommand('/bin/true', [], { scratch, missing: 'x', mode: 'bwrap' });
    expect([first.command, ...first.args].includes(standIn)).toBe(true);
    // Gone from disk, still the cached answer for this PATH: no lookup per call.
    fs.rmSync(standIn);
    const second = await engineCommand('/bin/true', [], { scratch, missing: 'x', mode: 'bwrap' });
    expect([second.command, ...second.args].includes(standIn)).toBe(true);
    process.env.PATH = saved;
    const real = await engineCommand('/bin/true', [], { scratch, missing: 'x', mode: 'bwrap' });
    expect([real.command, ...real.args].includes(standIn)).toBe(false);
  });
});
