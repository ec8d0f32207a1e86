import type { Placed } from './electronics-select.ts';

/** USB 2.0 VBUS at the port: 4.75-5.25 V; a device that is not configured may draw one unit load (100 mA), 500 mA once configured. */
export const USB = { vbus_max_v: 5.25, vbus_min_v: 4.75, unconfigured_ma: 100, configured_ma: 500 } as const;

/** Each limit is used to at most this fraction (20 % margin). */
export const MARGIN = 0.8;

export interface BudgetLine {
  ref: string;
  mpn: string;
  current_ma: number;
  basis: string;
}

export interface PowerBudget {
  rail_v: number;
  lines: BudgetLine[];
  load_ma: number;
  rail_mw: number;
  regulator: { ref: string; mpn: string; rated_ma: number; iq_ma_max: number; dissipation_mw: number; basis: string };
  usb_ma: number;
  /** The ATmega328P board does not enumerate, so the unit load (100 mA) binds, not 500 mA. */
  usb_limit_ma: number;
  checks: { name: string; value: number; limit: number; unit: string; pass: boolean }[];
  closed: boolean;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The worst-case power budget of the rail: every part's maximum supply current from its datasheet, each pull-up as
 * if its line were held low (rail / R), times the rail voltage; the regulator's quiescent current on top from USB.
 * Closed when the load stays within MARGIN of the regulator's rating and of what USB may supply to a device that does
 * not enumerate (one unit load) — and of 500 mA.
 */
export function powerBudget(placed: Placed[], railV: number): PowerBudget {
  const lines: BudgetLine[] = [];
  for (const p of placed) {
    if (p.part.current_ma_max !== undefined)
      lines.push({ ref: p.ref, mpn: p.part.mpn, current_ma: p.part.current_ma_max, basis: p.part.current_basis ?? '' });
    if (p.part.resistance_ohm && p.nets?.includes('+3V3'))
      lines.push({
        ref: p.ref,
        mpn: p.part.mpn,
        current_ma: r2((railV / p.part.resistance_ohm) * 1000),
        basis: `pull-up to the rail, line held low: ${railV} V / ${p.part.resistance_ohm / 1000} kOhm`,
      });
  }
  const reg = placed.find((p) => p.part.regulator)!;
  const spec = reg.part.regulator!;
  const load = r2(lines.reduce((n, l) => n + l.current_ma, 0));
  const usb = r2(load + spec.iq_ma_max);
  const dissipation = r2((USB.vbus_max_v - railV) * load + USB.vbus_max_v * spec.iq_ma_max);
  const checks = [
    { name: 'rail load vs regulator rating', value: load, limit: r2(MARGIN * spec.rated_ma), unit: 'mA' },
    { name: 'USB current vs one unit load', value: usb, limit: r2(MARGIN * USB.unconfigured_ma), unit: 'mA' },
    { name: 'USB current vs 500 mA', value: usb, limit: r2(MARGIN * USB.configured_ma), unit: 'mA' },
    { name: 'regulator input vs its maximum', value: USB.vbus_max_v, limit: spec.vin_max_v, unit: 'V' },
  ].map((c) => ({ ...c, pass: c.value <= c.limit }));
  return {
    rail_v: railV,
    lines,
    load_ma: load,
    rail_mw: r2(load * railV),
    regulator: {
      ref: reg.ref,
      mpn: reg.part.mpn,
      rated_ma: spec.rated_ma,
      iq_ma_max: spec.iq_ma_max,
      dissipation_mw: dissipation,
      basis: spec.basis,
    },
    usb_ma: usb,
    usb_limit_ma: USB.unconfigured_ma,
    checks,
    closed: checks.every((c) => c.pass),
  };
}

export interface CostRollup {
  total_eur: number;
  lines: { mpn: string; quantity: number; unit_eur: number }[];
  budget: { amount: number; currency: string } | null;
  /** null when the request states no budget, or one in another currency (no exchange rate is assumed). */
  within: boolean | null;
}

/** Parts cost: unit price x quantity per MPN, against the request's budget when it is in EUR. */
export function partsCost(placed: Placed[], budget: { amount: number; currency: string } | null): CostRollup {
  const by = new Map<string, { mpn: string; quantity: number; unit_eur: number }>();
  for (const p of placed) {
    const line = by.get(p.part.mpn) ?? { mpn: p.part.mpn, quantity: 0, unit_eur: p.part.price_eur };
    line.quantity += 1;
    by.set(p.part.mpn, line);
  }
  const lines = [...by.values()];
  const total = r2(lines.reduce((n, l) => n + l.quantity * l.unit_eur, 0));
  return {
    total_eur: total,
    lines,
    budget,
    within: budget && budget.currency === 'EUR' ? total <= budget.amount : null,
  };
}
