/**
 * The hardware quantities of a request that the intent compiler does not extract yet (it reads the envelope, loads in
 * newtons, the material and the budget): the mounted mass, the wall standoff, the bracket thickness, the shock level,
 * the logic voltage, the power source and the sensed quantities. Pure and deterministic; what the text does not say
 * is null, never a default.
 */
export interface HardwareFacts {
  /** Mass of the enclosure with its contents (kg), from `0.4 kg` / `400 g` (not a `2 g` acceleration). */
  mass_kg: number | null;
  /** Distance the bracket holds the enclosure off the wall (mm), from `50 mm off the wall`. */
  standoff_mm: number | null;
  /** Bracket plate thickness (mm), from `3 mm aluminium bracket` / `bracket 3 mm thick`. */
  bracket_thickness_mm: number | null;
  /** Shock acceleration in multiples of standard gravity, from `2 g shock`. */
  shock_g: number | null;
  /** Logic supply voltage (V), from `3.3 V`. */
  logic_v: number | null;
  /** The stated power source. */
  power_source: 'usb' | null;
  /** Quantities the product senses, in the order the request names them. */
  sensed: string[];
}

const NUM = '(\\d+(?:[.,]\\d+)?)';
const num = (s: string) => Number(s.replace(',', '.'));
const first = (re: RegExp, text: string, scale = 1) => {
  const m = re.exec(text);
  return m ? num(m[1]) * scale : null;
};
const SENSED = ['temperature', 'humidity', 'pressure', 'light', 'co2', 'motion', 'sound'];

/** Reads the hardware facts of a request. */
export function hardwareFacts(text: string): HardwareFacts {
  const kg = first(new RegExp(`${NUM}\\s*kg\\b`, 'i'), text);
  const grams = first(new RegExp(`${NUM}\\s*(?:grams?|g)\\b(?!\\s*(?:shock|acceleration|load|vibration))`, 'i'), text);
  return {
    mass_kg: kg ?? (grams === null ? null : grams / 1000),
    standoff_mm: first(new RegExp(`${NUM}\\s*mm\\s+(?:off|from|away\\s+from)\\s+(?:the\\s+)?wall`, 'i'), text),
    bracket_thickness_mm:
      first(new RegExp(`${NUM}\\s*mm\\s+(?:thick\\s+)?(?:[a-z0-9-]+\\s+){0,2}bracket`, 'i'), text) ??
      first(new RegExp(`bracket\\s+${NUM}\\s*mm\\s+thick`, 'i'), text),
    shock_g: first(new RegExp(`${NUM}\\s*g\\s+(?:shock|acceleration)`, 'i'), text),
    logic_v: first(new RegExp(`${NUM}\\s*V\\b`), text),
    power_source: /\busb\b/i.test(text) ? 'usb' : null,
    sensed: SENSED.filter((w) => new RegExp(`\\b${w}\\b`, 'i').test(text)),
  };
}
