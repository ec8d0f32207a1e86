import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { GatesActions } from '../../../contracts/actions/runs.actions.ts';
import type { PhaseInput } from '../../../actors/runs/executor.ts';
import { HARDWARE_V1 } from '../../../actors/runs/flows/hardware-v1.ts';
import { electronicsPhase } from '../../../actors/runs/handlers/hardware/electronics-phase.ts';
import { buildFirmware } from '../../../actors/runs/handlers/hardware/firmware-build.ts';
import { firmwarePhase } from '../../../actors/runs/handlers/hardware/firmware-phase.ts';
import type { Deliverable } from '../../../actors/runs/run.types.ts';
import { postJson } from '../../support/http-raw.ts';
import { sensorFirmware } from '../../support/firmware-parts.ts';
import { useTestNode } from '../../support/node.ts';
import { phaseInput } from '../../support/phase-input.ts';
import { callTool, okData } from '../../support/tools.ts';

// The hardware_v1 firmware handler through the real registry, twin, eda adapter and firmware actor (gcc in the engine
// sandbox), on the schematic the electronics handler generates for the reference request: the phase input is what the
// runs actor builds (service caller scoped to the run, the node's bus), run by hand.
const REFERENCE =
  'a wall-mounted environmental sensor: a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';
const t = useTestNode({ realDb: true, workspace: 'firmware-phase-', startTimeoutMs: 120_000 });

/** The runs actor's phase input for one attempt of `phaseId`, recording the tools called. */
const inputFor = (projectId: string, phase: string, prior: Record<string, Deliverable[]> = {}, runId?: string) =>
  phaseInput(t.node.broker, HARDWARE_V1, { projectId, phase, prior, runId, goal: REFERENCE });

const project = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const node = (input: PhaseInput, node_id: string) =>
  okData(
    callTool(t.node.broker, 'twin.get_node', { node_id }, { project_id: input.project_id!, run_id: input.run_id }),
  );

describe('the firmware phase', () => {
  it('without a schematic from the electronics phase fails as data, building nothing', async () => {
    const { input, called } = inputFor(await project('no board'), 'firmware');
    expect(await firmwarePhase(input)).toEqual({
      ok: false,
      kind: 'data',
      message: 'no schematic was delivered by the electronics phase: the pin map reads it',
    });
    expect(called).toEqual([]);
  });

  it('a build that fails stops the phase as a design failure listing the diagnostics', async () => {
    const { input } = inputFor(await project('broken'), 'firmware');
    const broken = [{ path: 'main.c', content: 'int main(void) {\n  return undeclared;\n}\n' }];
    const err = await buildFirmware(input, broken).then(
      () => null,
      (e: unknown) => e as { kind: string; message: string },
    );
    expect(err?.kind).toBe('design');
    expect(err?.message).toMatch(
      /^the firmware does not build \(gcc .*-Werror -O2\): main\.c:2:10: error: .*undeclared/,
    );
  });

  it('on the reference board: records the pin map, a firmware source that builds on the host and for the ATmega328P, and the decision', async () => {
    const pid = await project('env sensor');
    const runId = `run-${crypto.randomUUID()}`;
    const el = await electronicsPhase(inputFor(pid, 'electronics', {}, runId).input);
    if (!el.ok) throw new Error(`electronics: ${el.kind}: ${el.message}`);
    const { input, called } = inputFor(pid, 'firmware', { electronics: el.deliverables }, runId);
    const since = new Date(Date.now() - 1000).toISOString();
    const out = await firmwarePhase(input);
    if (!out.ok) throw new Error(`${out.kind}: ${out.message}`);
    expect(out.deliverables.map((d) => d.type)).toEqual(['pinmap', 'firmware_source', 'design_decision']);
    expect(called).toEqual([
      'twin.get_node',
      'eda.get_pin_mapping',
      'twin.record_document',
      'twin.record_document',
      'twin.record_decision',
    ]);

    const pin = await node(input, out.deliverables[0]!.node_id);
    expect(pin.properties).toMatchObject({
      mcu: { reference: 'U1', value: 'ATmega328P-AU' },
      sensor: { reference: 'U2', value: 'SHT31-DIS', i2c_address: 0x44 },
    });
    const pins = pin.properties.pins as { number: string; net: string | null; port: string | null; use: string }[];
    expect(pins).toHaveLength(32);
    const byUse = (use: string) => pins.filter((p) => p.use === use).map((p) => `${p.number}:${p.port ?? ''}`);
    expect([byUse('i2c_sda'), byUse('i2c_scl'), byUse('reset')]).toEqual([['27:PC4'], ['28:PC5'], ['29:PC6']]);
    expect([byUse('isp_mosi'), byUse('isp_miso'), byUse('isp_sck')]).toEqual([['15:PB3'], ['16:PB4'], ['17:PB5']]);
    expect(byUse('ground').length + byUse('power').length).toBe(6);

    const fw = await node(input, out.deliverables[1]!.node_id);
    const files = fw.properties.files as { path: string; sha256: string; bytes: number }[];
    // Every file of the scaffold (its list: firmware-scaffold.test.ts) is recorded with its digest.
    expect(files.map((f) => f.path)).toEqual(sensorFirmware().map((f) => f.path));
    expect(files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256) && f.bytes > 0)).toBe(true);
    expect(fw.properties.build).toMatchObject({
      passed: true,
      compiler: expect.stringMatching(/^gcc /),
      flags: ['-std=c11', '-Wall', '-Wextra', '-Werror', '-O2'],
      errors: 0,
      warnings: 0,
      sandboxed: true,
      binary: { path: `firmware/${runId}/build/firmware` },
    });
    // The part's own build: avr-gcc for the ATmega328P the pin map names, its flash and RAM against the part's.
    const target = fw.properties.target_build as Record<string, any>;
    expect(target).toMatchObject({
      mcu: 'atmega328p',
      available: true,
      passed: true,
      compiler: expect.stringMatching(/^avr-gcc /),
      flash_max_bytes: 32_768,
      ram_max_bytes: 2_048,
      hex: { path: `firmware/${runId}/build/atmega328p/firmware.hex` },
    });
    expect(target.flash_bytes).toBeGreaterThan(0);
    expect(target.flash_bytes).toBeLessThan(32_768);
    expect(target.ram_bytes).toBeLessThan(2_048);
    const decision = await node(input, out.deliverables[2]!.node_id);
    expect(decision.properties.decision).toMatch(/on the host with Debian gcc .* for the microcontroller with avr-gcc/);
    expect(decision.properties.decision).toMatch(
      new RegExp(
        `atmega328p: flash ${target.flash_bytes} of 32768 bytes \\(\\d+ %\\), static RAM ${target.ram_bytes} of 2048`,
      ),
    );
    expect(decision.properties.decision).toMatch(
      /SDA SDA\/PC4 \(pad 27\), SCL SCL\/PC5 \(pad 28\) to U2 SHT31-DIS at 0x44/,
    );

    const g = await call(t.node.broker, GatesActions.evaluate, {
      run_id: input.run_id,
      project_id: input.project_id,
      phase: 'firmware',
      attempt: 1,
      started_at: since,
      required_deliverables: input.phase.required_deliverables,
      enforce_deliverables: input.phase.enforce_deliverables,
      enforce_constraints: input.phase.gate.enforce_constraints,
    });
    expect(g.ready).toBe(true);
  }, 1_200_000); // the electronics phase places and routes a board of its own (decision 0166)
});
