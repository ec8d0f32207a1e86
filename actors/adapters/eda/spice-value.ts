/**
 * KiCad 6's SPICE conventions for values and node names (eeschema's NETLIST_EXPORTER_PSPICE), written for ngspice:
 * passive values such as `4k7`, `100nF`, `2.2 MΩ`, `1UF` become SPICE numbers (`4.7k`, `100n`, `2.2Meg`, `1u`);
 * net names become node names without the characters SPICE reads as separators.
 */

/** SI prefixes as written on schematics, to SPICE's (case-insensitive except that KiCad's `M` is mega, `m` milli). */
const PREFIX: Record<string, string> = {
  f: 'f',
  p: 'p',
  P: 'p',
  n: 'n',
  N: 'n',
  u: 'u',
  U: 'u',
  µ: 'u',
  μ: 'u',
  m: 'm',
  k: 'k',
  K: 'k',
  M: 'Meg',
  meg: 'Meg',
  g: 'G',
  G: 'G',
  t: 'T',
  T: 'T',
  r: '',
  R: '',
};

/**
 * mantissa, prefix (a letter, `Meg` in any case, or `R` as the decimal point of `4R7`), unit (F, H, Ω, ohm), then the
 * digits of a `4k7` form. `1F` reads as one farad only with the capital F; a lowercase `f` alone is femto.
 */
const PASSIVE = /^(\d+(?:[.,]\d*)?|[.,]\d+)\s*(meg|[fpPnNuUµμmkKMgGtTrR])?\s*(F|H|Ω|Ω|ohms?)?(\d*)$/i;

/**
 * A passive part's value (R, C, L) as a SPICE number, or the text unchanged when it is not a plain value (an
 * expression `{...}`, a model name, `100 ac 1`): KiCad 6's passive rule, plus the `4k7` and `4R7` forms SPICE itself
 * would misread (ngspice reads `4k7` as 4k) and a capital `M`, which SPICE would read as milli.
 */
export function spiceValue(value: string): string {
  const text = value.trim();
  const m = PASSIVE.exec(text.replace(/\s+/g, ' '));
  if (!m) return value.trim();
  const [, mantissa, rawPrefix, unit, digits] = m;
  let prefix: string | undefined = rawPrefix;
  // `10F` is ten farads and `1f` one femto: the lone letter F/f is a prefix only in lowercase.
  if (prefix === 'F' && !unit) prefix = undefined;
  const p = prefix === undefined ? '' : (PREFIX[prefix.length > 1 ? 'meg' : prefix] ?? prefix);
  let number = mantissa.replace(',', '.');
  if (digits) {
    // `4k7`: the prefix is the decimal point; only after a whole number (`4.7k7` is not a value).
    if (!prefix || number.includes('.')) return value.trim();
    number = `${number}.${digits}`;
  }
  if (number.startsWith('.')) number = `0${number}`;
  if (number.endsWith('.')) number = number.slice(0, -1);
  return `${number}${p}`;
}

/** The ground nets: SPICE's node 0. */
export const isGround = (name: string) => name === 'GND' || name === '0';

/**
 * A net name as a SPICE node: the root sheet's leading `/` dropped, then every character ngspice would split or
 * misread (space, parentheses, `=`, comma, quotes, braces) replaced with `_`, as KiCad 6 does for `(` `)` and spaces:
 * `Net-(C1-Pad2)` -> `Net-_C1-Pad2_`, `/lowpass` -> `lowpass`, `/sub/in` -> `sub/in`.
 */
export function nodeName(net: string): string {
  const bare = net.replace(/^\//, '');
  const clean = bare.replace(/[^\w+\-./#$%&!?:<>|@~^]/g, '_');
  return clean || '_';
}

/**
 * Assigns node names to nets, unique in ngspice's case-insensitive view: ground nets are `0`; a clash (`/a b` and
 * `/a_b`, `Out` and `out`, or a net named `0` that is not ground) gets a `_2`, `_3`... suffix.
 */
export class NodeNames {
  private readonly used = new Set<string>(['0']);
  private readonly names = new Map<string, string>();

  of(net: string): string {
    const known = this.names.get(net);
    if (known !== undefined) return known;
    let name = '0';
    if (!isGround(net)) {
      const base = nodeName(net);
      name = base;
      for (let k = 2; this.used.has(name.toLowerCase()); k++) name = `${base}_${k}`;
      this.used.add(name.toLowerCase());
    }
    this.names.set(net, name);
    return name;
  }
}

/** Pin numbers ascending: numbers numerically, then the rest (A1, B2...) in natural order. */
export function comparePins(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
