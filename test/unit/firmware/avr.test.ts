import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AVR_GCC_MISSING, avrBuild, sectionSizes } from '../../../actors/firmware/avr.ts';

describe('the AVR target build', () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it("reads avr-size's section table", () => {
    const table =
      'fw.elf  :\nsection   size      addr\n.data      154   8388864\n.text     5406         0\n.bss        21   8389018\n.comment    17         0\nTotal     5598\n';
    expect(sectionSizes(table)).toEqual({ '.data': 154, '.text': 5406, '.bss': 21, '.comment': 17 });
  });

  it('without avr-gcc on PATH builds nothing and says so: not available, not passed, no sizes', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-avr-'));
    process.env.PATH = empty;
    const dirs = { root: empty, src: empty, out: empty };
    const out = await avrBuild('atmega328p', ['main.c'], dirs, 'firmware/x', AbortSignal.timeout(5000));
    expect(out).toMatchObject({
      mcu: 'atmega328p',
      available: false,
      reason: AVR_GCC_MISSING,
      passed: false,
      flash_bytes: null,
      ram_bytes: null,
      hex: null,
      flash_max_bytes: 32_768,
      ram_max_bytes: 2_048,
    });
    expect(fs.readdirSync(empty)).toEqual([]);
    fs.rmSync(empty, { recursive: true });
  });
});
