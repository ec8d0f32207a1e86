import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { FirmwareActions } from '../../../contracts/actions/firmware.actions.ts';
import { sensorFirmware } from '../../support/firmware-parts.ts';
import { useTestNode } from '../../support/node.ts';

// firmware.build with a target (avr-gcc, Debian gcc-avr and avr-libc) on a real node, in the engine sandbox: the
// generated scaffold for the ATmega328P with its flash and RAM use and the Intel HEX image; an error only the target
// build sees; a program over the part's RAM. CI installs the toolchain, so its absence fails here, never skips.
const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'firmware-target-')));
const t = useTestNode({ roles: 'firmware', env: { SERVICE_WORKSPACE: workspace } });
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

const build = (run_id: string, files: { path: string; content: string }[]) =>
  call(t.node.broker, FirmwareActions.build, { run_id, files, target: 'atmega328p' });
const main = (body: string) => ({ path: 'main.c', content: `#include <stdint.h>\n${body}\n` });

describe('firmware.build for the ATmega328P', () => {
  it("builds the sensor scaffold for the part: within its 32 KB flash and 2 KB RAM, with the programmer's HEX image", async () => {
    const out = await build('run-avr', sensorFirmware());
    expect(out.passed).toBe(true);
    expect(out.target).toMatchObject({
      mcu: 'atmega328p',
      available: true,
      reason: null,
      passed: true,
      diagnostics: [],
      error_count: 0,
      flags: ['-std=c11', '-Wall', '-Wextra', '-Werror', '-Os', '-mmcu=atmega328p', '-DF_CPU=8000000UL'],
      flash_max_bytes: 32_768,
      ram_max_bytes: 2_048,
      hex: { path: 'firmware/run-avr/build/atmega328p/firmware.hex' },
    });
    const target = out.target!;
    expect(target.compiler).toMatch(/^avr-gcc /);
    // The driver, the TWI HAL, vfprintf with floats: a few KB, far from the part's limits, and not nothing.
    expect(target.flash_bytes).toBeGreaterThan(2_000);
    expect(target.flash_bytes).toBeLessThan(32_768);
    expect(target.ram_bytes).toBeGreaterThan(0);
    expect(target.ram_bytes).toBeLessThan(2_048);
    const hex = fs.readFileSync(path.join(workspace, target.hex!.path), 'utf8').trim().split('\n');
    expect(hex.every((l) => /^:[0-9A-F]+\r?$/.test(l))).toBe(true);
    expect(hex.at(-1)!.trim()).toBe(':00000001FF');
    // Data bytes of the HEX records: the program's flash image, .text and .data.
    const bytes = hex.reduce((n, l) => n + (l.slice(7, 9) === '00' ? parseInt(l.slice(1, 3), 16) : 0), 0);
    expect(bytes).toBe(target.flash_bytes);
    // The host build of the same sources still runs beside it.
    expect(out.binary?.path).toBe('firmware/run-avr/build/firmware');
  });

  it('fails on an error only the target build sees, naming its file and line, with the host build passing', async () => {
    const out = await build('run-avr-error', [
      main('int main(void) { return 0; }'),
      { path: 'board.c', content: '#ifdef __AVR__\n#error "this board has no AVR port"\n#endif\nint board;\n' },
    ]);
    expect(out.binary).not.toBeNull();
    expect(out.passed).toBe(false);
    expect(out.target).toMatchObject({ available: true, passed: false, hex: null, flash_bytes: null });
    expect(out.target!.diagnostics).toContainEqual(
      expect.objectContaining({
        file: 'board.c',
        line: 2,
        severity: 'error',
        message: expect.stringMatching(/no AVR port/),
      }),
    );
  });

  it("fails a program whose static RAM is over the part's 2 KB", async () => {
    const out = await build('run-avr-big', [
      main('volatile uint8_t table[3000] = {1};\nint main(void) { return table[0]; }'),
    ]);
    expect(out.passed).toBe(false);
    expect(out.target).toMatchObject({ available: true, passed: false });
    // The linker refuses it (its data region is the part's SRAM); the size check would say so too.
    expect(out.target!.output).toMatch(/not within region .data'|over the 2048/);
  });
});
