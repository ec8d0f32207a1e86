import { describe, expect, it } from 'vitest';
import { capabilityReport } from '../../../actors/runs/capabilities.ts';
import { HARDWARE_V1 } from '../../../actors/runs/flows/hardware-v1.ts';

// The engine-actor gaps of the capability report (capability-inputs.ts gathers them from `firmware.health`): a phase
// whose handler builds on an actor that cannot run is not runnable, saying why; other phases are untouched.
const TOOLS = ['twin.record_decision', 'twin.record_document', 'twin.record_engineering_entity', 'eda.get_pin_mapping'];
const GCC =
  'the firmware actor cannot build: the C compiler gcc is not installed (not found on PATH; Debian package gcc)';
const report = (engineGaps?: Record<string, string>, handlers = ['firmware', 'electronics']) =>
  capabilityReport(HARDWARE_V1, {
    toolIds: TOOLS,
    unavailableAdapters: [],
    unavailableTools: {},
    handlers: new Set(handlers),
    routes: { reachable: false, reason: 'no harness' },
    engineGaps,
  });
const firmware = (r: ReturnType<typeof report>) => r.phases.find((p) => p.id === 'firmware')!;

describe('engine gaps in the capability report', () => {
  it('make the firmware phase not runnable, naming gcc, and leave the others as they were', () => {
    const r = report({ firmware: GCC });
    expect(firmware(r)).toMatchObject({ runnable: false, status: 'BLOCKED', handler: 'deterministic', missing: [GCC] });
    expect(r.warnings).toContain(`phase firmware cannot run now: ${GCC}`);
    expect(r.phases.find((p) => p.id === 'electronics')).toEqual(report({}).phases.find((p) => p.id === 'electronics'));
  });

  it('without a gap (or without gathering them) the phase with its handler is runnable', () => {
    expect(firmware(report({}))).toMatchObject({ runnable: true, missing: [] });
    expect(firmware(report(undefined))).toMatchObject({ runnable: true, missing: [] });
  });

  it('a phase without a handler is reported for that, not for its engine', () => {
    expect(firmware(report({ firmware: GCC }, []))).toMatchObject({ handler: 'none' });
    expect(firmware(report({ firmware: GCC }, [])).missing).not.toContain(GCC);
  });
});
