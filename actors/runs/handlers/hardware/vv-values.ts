import type { CompiledIntent } from '../../../../contracts/intent.ts';
import { budgetMetric } from './architecture.ts';
import { type Budget, costBudget, massBudget, powerBudget as powerAllocation } from './budgets.ts';
import type { PowerBudget } from './electronics-budget.ts';
import type { Placed } from './electronics-select.ts';
import { hardwareFacts } from './request-facts.ts';
import { CHOICES } from './reference-data.ts';

const r = (v: number, digits: number) => Number(v.toFixed(digits));
const isPower = (p: Placed) => p.part.functions.some((f) => f === 'usb_power' || f === 'regulator');
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** Mass of parts in kg; null when one of them has no known mass (then none is claimed). */
const massKg = (ps: Placed[], extraG = 0) =>
  ps.some((p) => p.part.mass_g === undefined) ? null : r((sum(ps.map((p) => p.part.mass_g!)) + extraG) / 1000, 4);

/**
 * The values the V&V phase states for the run's budget and requirement metrics (pure): what the chosen parts and the
 * design give for each allocation of the architecture's budgets (the same budgets, so the same metric names), and the
 * requirement metrics. Computed from the parts table (datasheet maxima, prices, package masses), the electronics power
 * budget, the BOM total and the housing design; an allocation with no known value is left out, so it stays no_data.
 */
export function verificationValues(
  intent: CompiledIntent,
  placed: Placed[],
  power: PowerBudget,
  bomTotal: number | null,
): Record<string, number> {
  const facts = hardwareFacts(intent.immediate_request);
  const p = intent.parameters;
  const out: Record<string, number> = {};
  const board = placed.filter((x) => !isPower(x));
  const supply = placed.filter(isPower);
  const sensor = power.lines.find((l) => placed.find((x) => x.ref === l.ref)?.part.functions.includes('temperature'));

  const put = (b: Budget, actual: (item: string) => number | null, total: number | null) => {
    for (const a of b.allocations.filter((x) => x.value > 0)) {
      const v = actual(a.item);
      if (v !== null) out[budgetMetric(b, a)] = v;
    }
    if (total !== null) out[budgetMetric(b, 'total')] = total;
  };

  if (facts.mass_kg !== null && p.dimensions_mm) {
    const mass = massBudget(facts.mass_kg, p.dimensions_mm);
    const housing = mass.allocations.find((a) => a.item === 'housing shell')?.value ?? null;
    const boardKg = massKg(board, CHOICES.board.value);
    const supplyKg = massKg(supply);
    const byItem: Record<string, number | null> = {
      'housing shell': housing,
      'MCU board with sensor': boardKg,
      'USB connector and regulator': supplyKg,
    };
    const parts = [housing, boardKg, supplyKg];
    put(mass, (item) => byItem[item] ?? null, parts.every((v) => v !== null) ? r(sum(parts as number[]), 4) : null);
  }

  const rail = power.lines.reduce((n, l) => n + l.current_ma, 0);
  const powerByItem: Record<string, number | null> = {
    'temperature and humidity sensor': sensor?.current_ma ?? null,
    '3.3 V LDO quiescent current': power.regulator.iq_ma_max,
    'MCU board (3.3 V rail)': sensor ? r(rail - sensor.current_ma, 2) : null,
  };
  put(powerAllocation(), (item) => powerByItem[item] ?? null, power.usb_ma);

  if (p.budget) {
    const price = (ps: Placed[]) => r(sum(ps.map((x) => x.part.price_eur)), 2);
    const costByItem: Record<string, number> = {
      'MCU board and sensor': price(board),
      'USB connector and regulator': price(supply),
    };
    const cost = costBudget(p.budget.amount, p.budget.currency);
    put(cost, (item) => costByItem[item] ?? null, p.budget.currency === 'EUR' ? bomTotal : null);
    if (bomTotal !== null && p.budget.currency === 'EUR') out.parts_cost_eur = bomTotal;
  }
  out.usb_current_ma = power.usb_ma;
  out.logic_rail_v = power.rail_v;
  return out;
}
