import type { Connectivity, PlacedGroup } from './connectivity.ts';
import { pinConflict, PIN_TYPE_NAMES } from './erc-matrix.ts';
import { driverConflicts, labelChecks } from './erc-labels.ts';
import { floatingWires } from './erc-wires.ts';
import { Violations } from './erc-violations.ts';
import { ercRules, type ErcSettings } from './erc-settings.ts';
import type { ErcItem, ErcReport } from './erc.types.ts';
import { strNumCmp } from './str-num-cmp.ts';
import type { PinType, PlacedPin, PlacedSymbol, Point, Schematic, SheetContent } from './schematic.types.ts';

export type { ErcItem, ErcReport, ErcType, ErcViolation } from './erc.types.ts';

/** A placed pin with its symbol and sheet instance. */
interface PinAt {
  sym: PlacedSymbol;
  pin: PlacedPin;
  sheet: SheetContent;
}

export const pinItem = ({ sym, pin }: PinAt): ErcItem => ({
  kind: 'pin',
  reference: sym.reference,
  pin: pin.number,
  position_mm: pin.at,
});
const pinLabel = ({ sym, pin }: PinAt) =>
  `${sym.reference} pin ${pin.number}${pin.name && pin.name !== '~' ? ` [${pin.name}]` : ''}`;

function groupPins(g: PlacedGroup): PinAt[] {
  return g.pins.map(({ symbol, pin }) => {
    const sym = g.sheet.symbols[symbol]!;
    return { sym, pin: sym.pins[pin]!, sheet: g.sheet };
  });
}

/** KiCad's "stacked" pins: same symbol, position, name and type; they never conflict with each other. */
const stacked = (a: PinAt, b: PinAt) =>
  a.sym === b.sym &&
  a.pin.at.x === b.pin.at.x &&
  a.pin.at.y === b.pin.at.y &&
  a.pin.name === b.pin.name &&
  a.pin.type === b.pin.type;

/**
 * ERC of a loaded schematic and its connectivity, after KiCad 6's checks (ERC_TESTER and CONNECTION_GRAPH::ercCheck*):
 * the pin conflict matrix and drivers per net, unconnected pins and no-connect flags per sheet group, annotation,
 * labels and the hierarchy (erc-labels.ts), under the project's rules (`settings`: severities, pin conflict matrix,
 * exclusions; absent, KiCad 9's defaults). Markers sit in the sheet instance of the item, so a sheet used twice reports
 * its own problems twice, as KiCad does.
 */
export function runErc(sch: Schematic, conn: Connectivity, settings?: ErcSettings): ErcReport {
  const started = performance.now();
  const v = new Violations(ercRules(settings));
  const groups = conn.groups.filter((g) => !g.bus);
  pinChecks(groups, v);
  for (const g of groups) groupChecks(g, v);
  annotationChecks(sch, v);
  labelChecks(sch, groups, v);
  driverConflicts(groups, v);
  floatingWires(sch.sheets, v);
  const by_type: ErcReport['by_type'] = {};
  for (const x of v.list) by_type[x.type] = (by_type[x.type] ?? 0) + 1;
  const error_count = v.list.filter((x) => x.severity === 'error').length;
  return {
    passed: error_count === 0,
    error_count,
    warning_count: v.list.length - error_count,
    by_type,
    violations: v.list,
    excluded_count: v.excluded,
    sheets: sch.sheets.map((s) => s.instance.names),
    elapsed_ms: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** The order KiCad 9 walks a net's pins in (ERC_TESTER::TestPinToPin sorts them): by reference, then pin number. */
const byReferenceAndNumber = (a: PinAt, b: PinAt) =>
  strNumCmp(a.sym.reference, b.sym.reference) || strNumCmp(a.pin.number, b.pin.number);

const DRIVEN: ReadonlySet<PinType> = new Set(['input', 'power_in']);
const DRIVING: ReadonlySet<PinType> = new Set(['output', 'power_out', 'passive', 'tri_state', 'bidirectional']);

/**
 * ERC_TESTER::TestPinToPin: per net (pins of every group, power symbols' pins included), each pair of non-stacked pins
 * the matrix does not pass, once; then a net with an input (power input) pin and no driver (power output pin: a power
 * supply or PWR_FLAG) is `pin_not_driven` (`power_pin_not_driven`). Nets of fewer than two pins are left to the
 * unconnected-pin check.
 */
function pinChecks(groups: PlacedGroup[], v: Violations) {
  const byNet = new Map<number, PinAt[]>();
  for (const g of groups) {
    if (!g.net) continue;
    const list = byNet.get(g.net) ?? [];
    list.push(...groupPins(g));
    byNet.set(g.net, list);
  }
  for (const pins of byNet.values()) {
    if (pins.length < 2) continue;
    pins.sort(byReferenceAndNumber);
    for (let i = 0; i < pins.length; i++)
      for (let j = i + 1; j < pins.length; j++) {
        const a = pins[i]!;
        const b = pins[j]!;
        if (stacked(a, b)) continue;
        const verdict = pinConflict(a.pin.type, b.pin.type, v.rules.matrix);
        if (verdict === 'ok') continue;
        v.add(
          'pin_to_pin',
          `Pins of type ${PIN_TYPE_NAMES[a.pin.type]} and ${PIN_TYPE_NAMES[b.pin.type]} are connected: ${pinLabel(a)} and ${pinLabel(b)}`,
          a.sheet,
          a.pin.at,
          [pinItem(a), pinItem(b)],
          verdict,
        );
      }
    const power = pins.some((p) => p.pin.type === 'power_in');
    const driven = pins.some((p) => (power ? p.pin.type === 'power_out' : DRIVING.has(p.pin.type)));
    if (driven) continue;
    // KiCad's choice of the pin to show: a visible one, and a power input on a power net.
    let shown: PinAt | undefined;
    for (const p of pins) {
      if (!DRIVEN.has(p.pin.type)) continue;
      if (
        !shown ||
        (shown.pin.hidden && !p.pin.hidden) ||
        (power !== (shown.pin.type === 'power_in') && power === (p.pin.type === 'power_in'))
      )
        shown = p;
    }
    if (!shown) continue;
    if (power)
      v.add(
        'power_pin_not_driven',
        `Input Power pin not driven by any Output Power pins: ${pinLabel(shown)}`,
        shown.sheet,
        shown.pin.at,
        [pinItem(shown)],
      );
    else
      v.add(
        'pin_not_driven',
        `Input pin not driven by any Output pins: ${pinLabel(shown)}`,
        shown.sheet,
        shown.pin.at,
        [pinItem(shown)],
      );
  }
}

/**
 * CONNECTION_GRAPH::ercCheckNoConnects, per sheet group. With a no-connect flag: a pin plus any other pin, label or
 * sheet pin is `no_connect_connected`; a flag on nothing but wires is `no_connect_dangling`. Without one: a pin with no
 * other (non-stacked) pin, label or sheet pin in its group is `pin_not_connected`, except no_connect and free pins and
 * the hidden power input pins of ordinary parts (they join their net by name); power symbols' own pins are checked.
 */
function groupChecks(g: PlacedGroup, v: Violations) {
  const pins = groupPins(g);
  const others = g.labels.length + g.sheetPins.length;
  if (g.noConnects.length) {
    const nc = g.noConnects[0]!;
    const ncItem: ErcItem = { kind: 'no_connect', position_mm: nc };
    if (pins.length && (pins.length > 1 || others)) {
      const d = (p: PinAt) => (p.pin.at.x - nc.x) ** 2 + (p.pin.at.y - nc.y) ** 2;
      const pin = pins.reduce((best, p) => (d(p) < d(best) ? p : best));
      v.add(
        'no_connect_connected',
        `A pin with a "no connection" flag is connected: ${pinLabel(pin)}`,
        g.sheet,
        pin.pin.at,
        [pinItem(pin), ncItem],
      );
    } else if (!pins.length && !others)
      v.add('no_connect_dangling', 'Unconnected "no connection" flag', g.sheet, nc, [ncItem]);
    return;
  }
  const pin = pins[0];
  if (!pin) return;
  const otherPin = pins.some((p) => !stacked(p, pin));
  if (otherPin || others) return;
  if (pin.pin.hidden && pin.pin.type === 'power_in' && !pin.sym.power) return;
  if (pin.pin.type === 'no_connect' || pin.pin.type === 'free') return;
  v.add('pin_not_connected', `Pin not connected: ${pinLabel(pin)}`, g.sheet, pin.pin.at, [pinItem(pin)]);
}

const symbolItem = (s: PlacedSymbol): ErcItem => ({ kind: 'symbol', reference: s.reference, position_mm: s.at });

/**
 * Annotation (SCH_REFERENCE_LIST::CheckAnnotation over every sheet instance, power symbols excluded): a reference
 * ending in '?' is `unannotated`; one reference on two symbols is `duplicate_reference` unless they are different
 * units: KiCad 9 takes them as units of one part whatever their library symbols (sonde xilinx's U1 units are
 * 74LS125, 74LS125_1, _6 and _7, rescued copies), and their units must then share value and footprint.
 */
function annotationChecks(sch: Schematic, v: Violations) {
  const byRef = new Map<string, { sym: PlacedSymbol; sheet: SheetContent }[]>();
  for (const sheet of sch.sheets)
    for (const sym of sheet.symbols) {
      if (sym.power || sym.reference.startsWith('#')) continue;
      if (sym.reference.endsWith('?') || !sym.reference) {
        v.add(
          'unannotated',
          `Symbol ${sym.reference || '(no reference)'} (${sym.value}) is not annotated`,
          sheet,
          sym.at,
          [symbolItem(sym)],
        );
        continue;
      }
      const list = byRef.get(sym.reference) ?? [];
      list.push({ sym, sheet });
      byRef.set(sym.reference, list);
    }
  for (const [ref, list] of byRef) {
    for (let j = 1; j < list.length; j++) {
      const b = list[j]!;
      const a = list.slice(0, j).find((x) => x.sym.unit === b.sym.unit);
      const items = (x: typeof b) => [symbolItem(x.sym)];
      if (a) {
        v.add('duplicate_reference', `Duplicate reference ${ref} (unit ${b.sym.unit})`, b.sheet, b.sym.at, [
          ...items(a),
          ...items(b),
        ]);
        continue;
      }
      const first = list[0]!;
      if (first.sym.value !== b.sym.value)
        v.add(
          'different_unit_value',
          `Units of ${ref} have different values: ${first.sym.value} and ${b.sym.value}`,
          b.sheet,
          b.sym.at,
          [...items(first), ...items(b)],
        );
      if (first.sym.footprint !== b.sym.footprint)
        v.add(
          'different_unit_footprint',
          `Units of ${ref} have different footprints: ${first.sym.footprint} and ${b.sym.footprint}`,
          b.sheet,
          b.sym.at,
          [...items(first), ...items(b)],
        );
    }
  }
}
