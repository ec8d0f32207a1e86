import { describe, expect, it } from 'vitest';
import { pinConflict, PIN_CONFLICT_MATRIX } from '../../../../workers/eda/erc-matrix.ts';
import type { ErcSettings } from '../../../../workers/eda/erc-settings.ts';
import { KICAD_RULE } from '../../../../workers/eda/erc.types.ts';
import { check, checkWith, CLEAN, erc, file, label, nc, sym, uuid, wire } from './erc-schematics.ts';
describe('the default pin conflict matrix (KiCad 6 m_defaultPinMap)', () => {
  it('is symmetric and has the cells the brief names', () => {
    for (let i = 0; i < 12; i++)
      for (let j = 0; j < 12; j++) expect(PIN_CONFLICT_MATRIX[i]![j]).toBe(PIN_CONFLICT_MATRIX[j]![i]);
    expect(pinConflict('output', 'output')).toBe('error');
    expect(pinConflict('power_out', 'power_out')).toBe('error');
    expect(pinConflict('output', 'power_out')).toBe('error');
    expect(pinConflict('open_collector', 'output')).toBe('error');
    expect(pinConflict('tri_state', 'output')).toBe('warning');
    expect(pinConflict('unspecified', 'passive')).toBe('warning');
    expect(pinConflict('unspecified', 'free')).toBe('ok');
    expect(pinConflict('no_connect', 'free')).toBe('error');
    expect(pinConflict('passive', 'power_in')).toBe('ok');
  });
});

describe('runErc on hand-written schematics', () => {
  it('passes a clean schematic with no violation', async () => {
    const r = await check();
    expect(r.violations).toEqual([]);
    expect(r).toMatchObject({ passed: true, error_count: 0, warning_count: 0, sheets: ['/'] });
  });

  it('pin_to_pin: two outputs on one net is one error; unspecified with passive one warning', async () => {
    const r = await check(sym('OUT', 'U10', 120, 50), sym('OUT', 'U11', 120, 50));
    expect(r.by_type).toEqual({ pin_to_pin: 1 });
    expect(r.violations[0]).toMatchObject({ severity: 'error', sheet: '/', position_mm: { x: 120, y: 50 } });
    expect(r.violations[0]!.items.map((i) => i.reference).sort()).toEqual(['U10', 'U11']);
    const w = await check(sym('UNS', 'U10', 120, 50), sym('R', 'R10', 120, 53.81), nc(120, 57.62));
    expect(w.by_type).toEqual({ pin_to_pin: 1 });
    expect(w).toMatchObject({ passed: true, warning_count: 1 });
  });

  it('pin_not_connected: a resistor pin on nothing', async () => {
    const r = await check(sym('R', 'R10', 120, 50), sym('OUT', 'U10', 120, 46.19));
    expect(r.by_type).toEqual({ pin_not_connected: 1 });
    expect(r.violations[0]!.items).toEqual([
      { kind: 'pin', reference: 'R10', pin: '2', position_mm: { x: 120, y: 53.81 } },
    ]);
  });

  it('power_pin_not_driven: GND without a PWR_FLAG or power output; pin_not_driven: two inputs alone', async () => {
    const r = await erc({
      'top.kicad_sch': file(...CLEAN.filter((s) => !s.includes('PWR_FLAG'))),
    });
    expect(r.by_type).toEqual({ power_pin_not_driven: 1 });
    expect(r.violations[0]!.items[0]).toMatchObject({ reference: '#PWR01', pin: '1' });
    const i = await check(sym('IN', 'U10', 120, 50), sym('IN', 'U11', 120, 50));
    expect(i.by_type).toEqual({ pin_not_driven: 1 });
  });

  it("the marker of an undriven net sits on its first pin in KiCad's order (reference, then number, numbers as numbers)", async () => {
    const r = await erc({
      'top.kicad_sch': file(
        sym('power:GND', '#PWR10', 150, 50, 'GND'),
        sym('power:GND', '#PWR9', 160, 50, 'GND'),
        sym('R', 'R1', 150, 53.81),
        sym('R', 'R2', 160, 53.81),
      ),
    });
    expect(r.violations.filter((v) => v.rule === 'power_pin_not_driven')).toMatchObject([
      { items: [{ reference: '#PWR9' }] },
    ]);
    const i = await check(sym('IN', 'U10', 120, 50), sym('IN', 'U9', 120, 50));
    expect(i.violations).toMatchObject([{ rule: 'pin_not_driven', items: [{ reference: 'U9' }] }]);
  });

  it('no_connect_connected and no_connect_dangling', async () => {
    const r = await check(sym('OUT', 'U10', 120, 50), sym('IN', 'U11', 120, 50), nc(120, 50), nc(150, 150));
    expect(r.by_type).toEqual({ no_connect_connected: 1, no_connect_dangling: 1 });
    expect(r.warning_count).toBe(2);
    expect(r.passed).toBe(true);
  });

  it('duplicate_reference, unannotated and units of one part', async () => {
    const parked = (lib: string, ref: string, x: number, value?: string, unit?: number) =>
      lib === 'R'
        ? [sym('R', ref, x, 100, value), nc(x, 96.19), nc(x, 103.81)]
        : [sym(lib, ref, x, 100, value, unit), nc(x, 100)];
    const r = await check(...parked('R', 'R5', 100), ...parked('R', 'R5', 110), ...parked('R', 'R?', 120));
    expect(r.by_type).toEqual({ duplicate_reference: 1, unannotated: 1 });
    const units = await check(...parked('DUAL', 'U7', 100, 'X', 1), ...parked('DUAL', 'U7', 110, 'X', 2));
    expect(units.violations).toEqual([]);
    // Units under different library symbols (KiCad's rescued copies) are still units of one part, as in KiCad 9.
    const rescued = await check(...parked('DUAL', 'U7', 100, 'X', 1), ...parked('IN', 'U7', 110, 'X', 2));
    expect(rescued.by_type).toEqual({});
    const diff = await check(...parked('DUAL', 'U7', 100, 'X', 1), ...parked('DUAL', 'U7', 110, 'Y', 2));
    expect(diff.by_type).toEqual({ different_unit_value: 1 });
  });

  it('label_dangling: a label on nothing, on a wire with no pin, on a net of one pin; global_label_dangling', async () => {
    const r = await check(
      label('label', 'FLOAT', 150, 150),
      wire(150, 160, 160, 160),
      label('label', 'WIRE', 150, 160),
      sym('IN', 'U10', 170, 170),
      label('global_label', 'ONCE', 170, 170),
      sym('OUT', 'U12', 190, 170),
      wire(190, 170, 200, 170),
      label('label', 'ONEPIN', 200, 170),
    );
    expect(r.by_type).toEqual({ label_dangling: 3, global_label_dangling: 1 });
    const g = r.violations.find((v) => v.type === 'global_label_dangling')!;
    expect(g).toMatchObject({ rule: 'global_label_dangling', severity: 'warning' });
    expect(g.items).toEqual([{ kind: 'label', text: 'ONCE', position_mm: { x: 170, y: 170 } }]);
    expect(r.violations.find((v) => v.items[0]!.text === 'ONEPIN')).toMatchObject({
      rule: 'label_dangling',
      severity: 'error',
    });
  });

  it('a label whose net has one pin and a no-connect flag, or two pins through its name, is not dangling', async () => {
    const r = await check(
      sym('OUT', 'U12', 190, 170),
      wire(190, 170, 200, 170),
      label('label', 'P', 200, 170),
      wire(210, 170, 220, 170),
      label('label', 'P', 220, 170),
      nc(210, 170),
      sym('OUT', 'U13', 190, 190),
      wire(190, 190, 200, 190),
      label('label', 'Q', 200, 190),
      sym('IN', 'U14', 230, 190),
      label('label', 'Q', 230, 190),
    );
    expect(r.violations).toEqual([]);
  });

  it('global_label_single: a global label whose name appears once, reported only when the project asks', async () => {
    const extra = [sym('OUT', 'U12', 190, 170), sym('IN', 'U13', 190, 170), label('global_label', 'LONE', 190, 170)];
    expect((await check(...extra)).violations).toEqual([]);
    const r = await checkWith({ severities: { single_global_label: 'warning' }, exclusions: [] }, ...extra);
    expect(r.violations).toMatchObject([
      {
        type: 'global_label_single',
        rule: 'single_global_label',
        severity: 'warning',
        position_mm: { x: 190, y: 170 },
      },
    ]);
  });

  it('driver_conflict: two local labels of different names on one wire, a warning', async () => {
    const r = await check(
      sym('OUT', 'U10', 120, 50),
      wire(120, 50, 130, 50),
      label('label', 'X', 125, 50),
      label('label', 'Y', 130, 50),
      sym('IN', 'U11', 130, 50),
    );
    expect(r.by_type).toEqual({ driver_conflict: 1 });
    expect(r.violations[0]).toMatchObject({
      rule: 'multiple_net_names',
      severity: 'warning',
      message: 'Both X and Y are attached to the same items; X will be used in the netlist',
    });
  });

  it('driver_conflict over the subgraphs a local label name joins on a sheet (KiCad absorbs them)', async () => {
    const r = await check(
      sym('OUT', 'U10', 120, 50),
      wire(120, 50, 130, 50),
      label('label', 'S', 130, 50),
      sym('IN', 'U11', 120, 70),
      wire(120, 70, 130, 70),
      label('label', 'S', 130, 70),
      label('hierarchical_label', 'H', 120, 70),
    );
    expect(r.violations).toMatchObject([
      {
        rule: 'multiple_net_names',
        message: 'Both S and H are attached to the same items; S will be used in the netlist',
        position_mm: { x: 130, y: 50 },
      },
    ]);
  });

  it('wire_dangling: a wire run that reaches no pin, label or sheet pin', async () => {
    const r = await check(wire(150, 150, 160, 150), wire(160, 150, 160, 140));
    expect(r.by_type).toEqual({ wire_dangling: 1 });
    expect(r.violations[0]).toMatchObject({ severity: 'error', position_mm: { x: 150, y: 150 } });
  });

  it('hier_label_mismatch: a sheet pin without its label and a label without its sheet pin', async () => {
    const sheet = `(sheet (at 150 100) (size 20 20) (uuid ${uuid()})
      (property "Sheet name" "child" (id 0) (at 0 0 0)) (property "Sheet file" "child.kicad_sch" (id 1) (at 0 0 0))
      (pin "A" input (at 150 105 180) (uuid ${uuid()})) (pin "B" input (at 150 110 180) (uuid ${uuid()})))`;
    const r = await erc({
      'top.kicad_sch': file(...CLEAN, sheet, sym('OUT', 'U10', 150, 105), sym('OUT', 'U11', 150, 110)),
      'child.kicad_sch': file(
        sym('IN', 'U20', 50, 50),
        label('hierarchical_label', 'A', 50, 50),
        sym('IN', 'U21', 60, 50),
        label('hierarchical_label', 'C', 60, 50),
      ),
    });
    expect(r.sheets).toEqual(['/', '/child/']);
    // C is also a label on a net of one pin (U21's).
    expect(r.by_type).toEqual({ hier_label_mismatch: 2, label_dangling: 1 });
    expect(
      r.violations
        .filter((v) => v.type === 'hier_label_mismatch')
        .map((v) => [v.sheet, v.items[0]!.kind, v.items[0]!.text]),
    ).toEqual([
      ['/', 'sheet_pin', 'B'],
      ['/child/', 'label', 'C'],
    ]);
  });
});

describe("runErc under a project's ERC settings (KiCad 9's rules)", () => {
  const none: ErcSettings = { severities: {}, exclusions: [] };
  const twoInputs = [sym('IN', 'U10', 120, 50), sym('IN', 'U11', 120, 50)];
  const twoOutputs = [sym('OUT', 'U10', 120, 50), sym('OUT', 'U11', 120, 50)];

  it('a rule set to warning or ignore changes its severity or drops it', async () => {
    expect((await checkWith(none, ...twoInputs)).violations).toMatchObject([
      { rule: 'pin_not_driven', severity: 'error' },
    ]);
    const w = await checkWith({ ...none, severities: { pin_not_driven: 'warning' } }, ...twoInputs);
    expect(w.violations).toMatchObject([{ rule: 'pin_not_driven', severity: 'warning' }]);
    expect(w).toMatchObject({ passed: true, error_count: 0, warning_count: 1 });
    const i = await checkWith({ ...none, severities: { pin_not_driven: 'ignore' } }, ...twoInputs);
    expect(i.violations).toEqual([]);
  });

  it("pin_to_pin: the rule only ignores or not; the project's pin map gives error or warning", async () => {
    const asWarning = await checkWith({ ...none, severities: { pin_to_pin: 'warning' } }, ...twoOutputs);
    expect(asWarning.violations).toMatchObject([{ rule: 'pin_to_pin', severity: 'error' }]);
    expect((await checkWith({ ...none, severities: { pin_to_pin: 'ignore' } }, ...twoOutputs)).violations).toEqual([]);
    const map = PIN_CONFLICT_MATRIX.map((row) => [...row]);
    map[1]![1] = 'warning'; // output with output
    const mapped = await checkWith({ ...none, pin_map: map }, ...twoOutputs);
    expect(mapped.violations).toMatchObject([{ rule: 'pin_to_pin', severity: 'warning' }]);
  });

  it("the project's exclusions leave out the marker of that rule at that point (schematic units, 100 nm)", async () => {
    const r = await checkWith(
      { ...none, exclusions: [{ rule: 'pin_to_pin', x: 1_200_000, y: 500_000 }] },
      ...twoOutputs,
    );
    expect(r).toMatchObject({ violations: [], excluded_count: 1, passed: true });
    const elsewhere = await checkWith(
      { ...none, exclusions: [{ rule: 'pin_to_pin', x: 1_200_000, y: 510_000 }] },
      ...twoOutputs,
    );
    expect(elsewhere).toMatchObject({ excluded_count: 0, error_count: 1 });
  });

  it("every violation names its rule with KiCad's name", async () => {
    const r = await check(
      ...twoOutputs,
      sym('R', 'R10', 150, 50),
      sym('R', 'R10', 160, 50),
      sym('R', 'R?', 170, 50),
      label('label', 'FLOAT', 150, 150),
      wire(150, 170, 160, 170),
      nc(200, 200),
    );
    expect(new Set(r.violations.map((v) => v.type))).toEqual(
      new Set([
        'pin_to_pin',
        'pin_not_connected',
        'duplicate_reference',
        'unannotated',
        'label_dangling',
        'wire_dangling',
        'no_connect_dangling',
      ]),
    );
    for (const v of r.violations) expect(v.rule).toBe(KICAD_RULE[v.type]);
    expect(r.violations.every((v) => v.rule.length > 0)).toBe(true);
  });
});
