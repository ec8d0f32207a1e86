import { afterEach, describe, expect, it } from 'vitest';
import {
  kicadCliVersion,
  kicadEngineStatus,
  resetPcbnewProbe,
  setKicadCli,
  setKicadPython,
} from '../../../../actors/adapters/eda/engine.ts';

// The eda adapter's engine status on this machine (KiCad 9 installed), and with kicad-cli or pcbnew taken away: each
// missing piece makes exactly its tools unavailable and names what to install.
afterEach(() => {
  setKicadCli('kicad-cli');
  setKicadPython('/usr/bin/python3');
  resetPcbnewProbe();
});

describe('kicadEngineStatus', () => {
  it('healthy with KiCad 9: kicad-cli answers 9.x', async () => {
    expect(await kicadCliVersion()).toMatch(/^9\.\d+/);
    expect(await kicadEngineStatus()).toEqual({ status: 'healthy' });
  });

  it('without kicad-cli: run_drc and export_gerber unavailable, naming kicad-cli, the package and the suite', async () => {
    setKicadCli('/nonexistent/kicad-cli');
    const s = await kicadEngineStatus();
    expect(s).toMatchObject({ status: 'degraded', unavailable: ['run_drc', 'export_gerber'] });
    expect(s.message).toContain('kicad-cli');
    expect(s.message).toContain('Debian package kicad from the suite bookworm-backports');
    expect(s.message).toContain('unavailable: eda.run_drc, eda.export_gerber');
  });

  it('without pcbnew: only auto_route unavailable, naming pcbnew', async () => {
    setKicadPython('/nonexistent/python3');
    const s = await kicadEngineStatus();
    expect(s).toMatchObject({ status: 'degraded', unavailable: ['auto_route'] });
    expect(s.message).toContain('cannot import pcbnew');
  });

  it('a program that is not kicad-cli (prints no version) counts as missing', async () => {
    setKicadCli('/bin/true');
    expect(await kicadCliVersion()).toBeNull();
    expect((await kicadEngineStatus()).unavailable).toEqual(['run_drc', 'export_gerber']);
  });
});
