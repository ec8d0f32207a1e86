import { describe, expect, it } from 'vitest';
import {
  verdicts,
  type TargetEvidence,
  type VvEvidence,
} from '../../../../actors/runs/handlers/hardware/vv-verdicts.ts';

// The firmware rows of the V&V verdict table: the build, then the target build's flash and static RAM against the
// part's; no target build (or no toolchain) is not_verified, never a pass.
const base: VvEvidence = {
  stress: null,
  cost: null,
  usb: null,
  logic: null,
  erc: null,
  drc: null,
  thermal: null,
  firmware: null,
};
const part = { mcu: 'atmega328p', flash_max: 32_768, ram_max: 2_048, reason: null };
const rowsOf = (target: TargetEvidence | null, passed: boolean | null = true) =>
  verdicts({ ...base, firmware: { passed, node_id: 'n-fw', target } })
    .filter((r) => r.requirement.startsWith('Firmware'))
    .map((r) => [r.requirement, r.status, r.value, r.limit, r.evidence]);

describe('the firmware verdicts', () => {
  it('pass when the target build fits the part', () => {
    expect(rowsOf({ ...part, flash: 5_560, ram: 175 })).toEqual([
      ['Firmware builds', 'pass', 0, 0, 'firmware_source n-fw'],
      [
        'Firmware flash fits the microcontroller',
        'pass',
        5_560,
        32_768,
        'target build of firmware_source n-fw (atmega328p)',
      ],
      [
        'Firmware static RAM fits the microcontroller',
        'pass',
        175,
        2_048,
        'target build of firmware_source n-fw (atmega328p)',
      ],
    ]);
  });

  it('fail a program over the part', () => {
    expect(rowsOf({ ...part, flash: 40_000, ram: 175 }, false).map((r) => r[1])).toEqual(['fail', 'fail', 'pass']);
  });

  it('leave the fit not verified without a target build, saying why', () => {
    expect(rowsOf({ ...part, flash: null, ram: null, reason: 'avr-gcc is not installed' }).slice(1)).toEqual([
      ['Firmware flash fits the microcontroller', 'not_verified', null, 32_768, 'avr-gcc is not installed'],
      ['Firmware static RAM fits the microcontroller', 'not_verified', null, 2_048, 'avr-gcc is not installed'],
    ]);
    expect(
      rowsOf(null)
        .slice(1)
        .map((r) => [r[1], r[4]]),
    ).toEqual([
      ['not_verified', 'no target build for this microcontroller'],
      ['not_verified', 'no target build for this microcontroller'],
    ]);
    expect(
      verdicts(base)
        .filter((r) => r.requirement.startsWith('Firmware'))
        .map((r) => [r.status, r.evidence]),
    ).toEqual([
      ['not_verified', 'no firmware build in this run'],
      ['not_verified', 'no firmware build in this run'],
      ['not_verified', 'no firmware build in this run'],
    ]);
  });
});
