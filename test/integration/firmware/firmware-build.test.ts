import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { FirmwareActions } from '../../../contracts/actions/firmware.actions.ts';
import { sensorFirmware } from '../../support/firmware-parts.ts';
import { useTestNode } from '../../support/node.ts';

// firmware.build on a real node hosting the firmware role: gcc in the engine sandbox (bwrap), sources under the
// node's workspace. Hostile paths first; then the generated scaffold, then a source with a deliberate error.
const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'firmware-build-')));
const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'firmware-outside-')));
const t = useTestNode({ roles: 'firmware', env: { SERVICE_WORKSPACE: workspace } });
afterAll(() => [workspace, outside].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const build = (run_id: string, files: { path: string; content: string }[]) =>
  call(t.node.broker, FirmwareActions.build, { run_id, files });
const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ActorError);
  expect((err as ActorError).type).toBe('VALIDATION_FAILED');
  return err as ActorError;
};
const ls = (dir: string) => (fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).sort() : []);
const main = { path: 'main.c', content: 'int main(void) { return 0; }\n' };

describe('firmware.build refuses hostile paths, writing nothing', () => {
  it('an absolute path or a .. is refused by the contract', async () => {
    await refusal(build('run-hostile', [main, { path: '/tmp/evil.c', content: 'int x;' }]));
    await refusal(build('run-hostile', [main, { path: '../../evil.c', content: 'int x;' }]));
    await refusal(build('../run', [main]));
    expect(ls(path.join(workspace, 'firmware'))).toEqual([]);
  });

  it('a build folder that is a symlink out of the workspace is refused', async () => {
    fs.mkdirSync(path.join(workspace, 'firmware'), { recursive: true });
    fs.symlinkSync(outside, path.join(workspace, 'firmware/run-link'));
    const err = await refusal(build('run-link', [main]));
    expect(err.message).toMatch(/outside the workspace through a symlink/);
    expect(ls(outside)).toEqual([]);
  });
});

describe('firmware.build on the host', () => {
  it('compiles the scaffold generated from a pin map: passed, no diagnostics, and the program runs', async () => {
    const out = await build('run-scaffold', sensorFirmware());
    expect(out).toMatchObject({
      passed: true,
      diagnostics: [],
      error_count: 0,
      warning_count: 0,
      flags: ['-std=c11', '-Wall', '-Wextra', '-Werror', '-O2'],
      build_dir: 'firmware/run-scaffold',
      binary: { path: 'firmware/run-scaffold/build/firmware' },
      sandboxed: true,
    });
    expect(out.compiler).toMatch(/^gcc /);
    // hal_avr.c is the target's HAL: the host compiles it to an empty object and links hal_host.c's functions.
    expect(out.objects.map((o) => o.file)).toEqual(['hal_avr.c', 'hal_host.c', 'main.c', 'sht31.c']);
    expect(out.target).toBeNull();
    expect(out.objects.every((o) => o.bytes > 0) && out.binary!.bytes > 0).toBe(true);
    // The compiled CRC-8 against the datasheet's example, and the simulated sensor through the driver.
    const log = execFileSync(path.join(workspace, out.binary!.path), { encoding: 'utf8' });
    expect(log).toContain('crc8(0xBEEF) = 0x92 (ok)');
    expect(log.match(/T = 25\.00 C, RH = 50\.00 %/g)).toHaveLength(3);
    expect(log).toContain('SHT31 at 0x44 on SDA pad 27, SCL pad 28');
  });

  it('a source with an error fails with its file and line; a warning is an error too; nothing is linked', async () => {
    const out = await build('run-broken', [
      { path: 'main.c', content: '#include "drivers/util.h"\nint main(void) {\n  return missing_symbol;\n}\n' },
      { path: 'drivers/util.h', content: 'int util(int a);\n' },
      { path: 'drivers/util.c', content: '#include "util.h"\nint util(int a) {\n  int unused = 1;\n  return a;\n}\n' },
    ]);
    expect(out.passed).toBe(false);
    expect(out.binary).toBeNull();
    expect(out.diagnostics).toContainEqual(
      expect.objectContaining({
        file: 'main.c',
        line: 3,
        severity: 'error',
        message: expect.stringMatching(/missing_symbol/),
      }),
    );
    expect(out.diagnostics).toContainEqual(
      expect.objectContaining({
        file: 'drivers/util.c',
        line: 3,
        severity: 'error',
        message: expect.stringMatching(/unused/),
      }),
    );
    expect(out.error_count).toBe(2);
    expect(out.objects).toEqual([]);
  });

  it('answers its health: healthy, naming the compiler', async () => {
    expect(await call(t.node.broker, FirmwareActions.health, {})).toMatchObject({
      status: 'healthy',
      compiler: expect.stringMatching(/^gcc /),
      sandbox: 'bwrap',
      message: null,
    });
  });
});
