import { describe, expect, it } from 'vitest';
import { generateSchematic } from '../../../../actors/adapters/eda/generate-schematic.ts';
import { connectivity } from '../../../../workers/eda/connectivity.ts';
import { runErc } from '../../../../workers/eda/erc.ts';
import { loadSchematic } from '../../../../workers/eda/schematic.ts';
import { rcLowPass, regulator } from './generate-schematic.fixtures.ts';

// A generated schematic is one this adapter's ERC accepts: no violation at all with the power flags it adds, and
// without them exactly KiCad's complaint about power inputs nothing drives.
const erc = async (text: string) => {
  const sch = await loadSchematic('gen.kicad_sch', () => Promise.resolve(text));
  return runErc(sch, connectivity(sch));
};

describe('generate_schematic output under ERC', () => {
  it.each([
    ['regulator', regulator],
    ['RC low-pass with a buffer', rcLowPass],
  ])('%s: passes with no violation', async (_name, spec) => {
    const report = await erc(generateSchematic(spec()).text);
    expect(report.violations).toEqual([]);
    expect(report.passed).toBe(true);
  });

  it('without power flags: only undriven power inputs, one per power net', async () => {
    const report = await erc(generateSchematic({ ...regulator(), power_flags: false }).text);
    expect(report.passed).toBe(false);
    expect(new Set(report.violations.map((v) => v.type))).toEqual(new Set(['power_pin_not_driven']));
  });
});
