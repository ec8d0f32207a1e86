import { describe, expect, it } from 'vitest';
import { compileIntent } from '../../../../actors/flows/compile.ts';
import { budgetConstraints } from '../../../../actors/runs/handlers/hardware/architecture.ts';
import { costBudget, massBudget, powerBudget } from '../../../../actors/runs/handlers/hardware/budgets.ts';
import { powerBudget as railBudget, partsCost } from '../../../../actors/runs/handlers/hardware/electronics-budget.ts';
import { selectParts } from '../../../../actors/runs/handlers/hardware/electronics-select.ts';
import { hardwareRequirements } from '../../../../actors/runs/handlers/hardware/requirements.ts';
import { verificationValues } from '../../../../actors/runs/handlers/hardware/vv-values.ts';
import { holds } from '../../../../contracts/requirements.ts';

const REQUEST =
  'a wall-mounted environmental sensor: an 80 x 60 x 30 mm enclosure of 0.4 kg held 50 mm off the wall by a 3 mm aluminium bracket, with a 2 g shock load, a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';

function valuesOf(text: string) {
  const intent = compileIntent(text);
  const sel = selectParts(text);
  if (!sel.ok) throw new Error('parts');
  const rail = railBudget(sel.placed, sel.rail_v);
  const bom = partsCost(sel.placed, intent.parameters.budget).total_eur;
  return { intent, values: verificationValues(intent, sel.placed, rail, bom), bom, rail };
}

describe('the values V&V states for verification', () => {
  it('give every derived budget requirement and every non-analysis requirement of the reference request a value that holds', () => {
    const { intent, values, bom, rail } = valuesOf(REQUEST);
    const derived = [massBudget(0.4, [80, 60, 30]), powerBudget(), costBudget(25, 'EUR')].flatMap((b) =>
      budgetConstraints(b, 'REQ@1'),
    );
    const stated = hardwareRequirements(intent).constraints.filter((c) => c.metric !== 'max_von_mises_mpa');
    for (const c of [...derived, ...stated]) {
      expect(values[c.metric], c.metric).toBeTypeOf('number');
      expect(
        holds(values[c.metric]!, c.operator, c.limit),
        `${c.metric} ${values[c.metric]} ${c.operator} ${c.limit}`,
      ).toBe(true);
    }
    // The sums: the BOM total is the cost total, the USB draw the power total, and the parts sum to their subsystems.
    expect(values.total_cost_eur).toBe(bom);
    expect(values.total_power_ma).toBe(rail.usb_ma);
    expect(
      values.electronics_mcu_board_and_sensor_cost_eur! + values.power_usb_connector_and_regulator_cost_eur!,
    ).toBeCloseTo(bom, 2);
    expect(values).not.toHaveProperty('max_von_mises_mpa');
  });

  it('claim no mass when the request states none, and no cost total without a BOM', () => {
    const { intent, rail } = valuesOf(REQUEST);
    const sel = selectParts(REQUEST);
    if (!sel.ok) throw new Error('parts');
    const noMass = compileIntent(REQUEST.replace(' of 0.4 kg', ''));
    const v = verificationValues(noMass, sel.placed, rail, null);
    expect(Object.keys(v).some((k) => k.endsWith('_mass_kg'))).toBe(false);
    expect(v).not.toHaveProperty('total_cost_eur');
    expect(v).not.toHaveProperty('parts_cost_eur');
    expect(verificationValues(intent, sel.placed, rail, null).usb_current_ma).toBe(rail.usb_ma);
  });
});
