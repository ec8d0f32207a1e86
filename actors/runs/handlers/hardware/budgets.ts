import { materialByName } from '../../../../contracts/materials.ts';
import { CHOICES, TYPICAL, USB } from './reference-data.ts';

/** The subsystems of a hardware_v1 product (architecture phase). */
export const SUBSYSTEMS = ['structure', 'electronics', 'power', 'firmware'] as const;
export type Subsystem = (typeof SUBSYSTEMS)[number];

/** One share of a budget: a computed or datasheet value, or a top-down allocation of what remains. */
export interface Allocation {
  subsystem: Subsystem;
  item: string;
  value: number;
  basis: string;
}

/** A budget that closes when its allocations sum to at most the limit less the reserve. */
export interface Budget {
  id: 'mass' | 'power' | 'cost';
  unit: string;
  limit: number;
  limit_basis: string;
  reserve: number;
  allocations: Allocation[];
  total: number;
  margin: number;
  closes: boolean;
}

const floorTo = (v: number, step: number) => Math.floor(v / step + 1e-9) * step;
const round = (v: number, step: number) => Number((Math.round(v / step) * step).toFixed(6));

/**
 * Closes a budget: the known shares first, then what remains of limit x (1 - reserve) split equally (rounded down to
 * `step`) among the subsystems that get an allocation. A budget whose known shares already exceed it does not close.
 */
export function closeBudget(
  head: Omit<Budget, 'allocations' | 'total' | 'margin' | 'closes' | 'reserve'>,
  known: Allocation[],
  allocated: { subsystem: Subsystem; item: string }[],
  step: number,
): Budget {
  const reserve = CHOICES.reserve.value;
  const available = head.limit * (1 - reserve);
  const remaining = available - known.reduce((s, a) => s + a.value, 0);
  const share = Math.max(0, floorTo(remaining / Math.max(1, allocated.length), step));
  const allocations = [
    ...known,
    ...allocated.map((a) => ({
      ...a,
      value: round(share, step),
      basis: `allocation: equal share of the ${head.limit} ${head.unit} limit less ${reserve * 100} % reserve and the known items`,
    })),
  ];
  const total = round(
    allocations.reduce((s, a) => s + a.value, 0),
    step / 100,
  );
  return {
    ...head,
    reserve,
    allocations,
    total,
    margin: round(head.limit - total, step / 100),
    closes: remaining >= 0,
  };
}

/** Mass of the enclosure assembly (kg): the stated mass is the limit; the housing shell is computed from its walls. */
export function massBudget(massKg: number, envelopeMm: number[]): Budget {
  const abs = materialByName('abs')!;
  const t = CHOICES.housingWall.value;
  const [a, b, c] = envelopeMm;
  const shellMm3 = a * b * c - (a - 2 * t) * (b - 2 * t) * (c - 2 * t);
  const housing = round(shellMm3 * abs.density_kg_m3 * 1e-9, 0.001);
  return closeBudget(
    { id: 'mass', unit: 'kg', limit: massKg, limit_basis: `stated: the enclosure of ${massKg} kg the bracket carries` },
    [
      {
        subsystem: 'structure',
        item: 'housing shell',
        value: housing,
        basis: `${envelopeMm.join(' x ')} mm shell, ${t} mm wall (${CHOICES.housingWall.source}), ABS ${abs.density_kg_m3} kg/m3 (contracts/materials.ts): ${Math.round(shellMm3)} mm3`,
      },
      { subsystem: 'firmware', item: 'firmware', value: 0, basis: 'software has no mass' },
    ],
    [
      { subsystem: 'electronics', item: 'MCU board with sensor' },
      { subsystem: 'power', item: 'USB connector and regulator' },
    ],
    0.001,
  );
}

/** Supply current drawn from USB (mA at VBUS): a linear regulator passes its load current plus its quiescent current. */
export function powerBudget(): Budget {
  return closeBudget(
    {
      id: 'power',
      unit: 'mA',
      limit: USB.unitLoad.value,
      limit_basis: `${USB.unitLoad.source}; at ${USB.vbus.value} V (${USB.vbus.source}) that is ${(USB.unitLoad.value * USB.vbus.value) / 1000} W`,
    },
    [
      {
        subsystem: 'electronics',
        item: 'temperature and humidity sensor',
        value: TYPICAL.thSensorCurrent.value,
        basis: TYPICAL.thSensorCurrent.source,
      },
      {
        subsystem: 'power',
        item: '3.3 V LDO quiescent current',
        value: TYPICAL.ldoQuiescent.value,
        basis: TYPICAL.ldoQuiescent.source,
      },
      { subsystem: 'firmware', item: 'firmware', value: 0, basis: 'draws through the MCU board allocation' },
    ],
    [{ subsystem: 'electronics', item: 'MCU board (3.3 V rail)' }],
    0.1,
  );
}

/**
 * Parts cost (in the stated currency): the request's parts cost is read as the bill of materials of the board, so the
 * housing and bracket (not priced by the service) are outside it; top-down allocations the BOM must meet.
 */
export function costBudget(amount: number, currency: string): Budget {
  return closeBudget(
    {
      id: 'cost',
      unit: currency,
      limit: amount,
      limit_basis: `stated: under ${amount} ${currency} parts cost (the board's BOM; housing and bracket are not parts of it)`,
    },
    [{ subsystem: 'firmware', item: 'firmware', value: 0, basis: 'no parts cost' }],
    [
      { subsystem: 'electronics', item: 'MCU board and sensor' },
      { subsystem: 'power', item: 'USB connector and regulator' },
    ],
    0.01,
  );
}
