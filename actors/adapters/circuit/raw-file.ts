/**
 * Parser of ngspice's ASCII raw file (`SPICE_ASCIIRAWFILE=1 ngspice -b -r out.raw`), pure: text in, plots out.
 *
 * Layout (notes/solver.md "ngspice 39"): per analysis a header of `Key: value` lines (`Title`, `Date`, `Plotname`,
 * `Flags: real|complex`, `No. Variables`, `No. Points`), `Variables:` then one line per variable (`\t<i>\t<name>\t<type>`,
 * sometimes followed by `grid=3`), then `Values:` with, per point, its index and one value per variable (complex as
 * `re,im`), separated by any mix of tabs, spaces and newlines. The next plot starts at its `Title:` line.
 * `No. Points` is what ngspice declared; a run that stopped early may hold fewer, so the points actually read win.
 */

/** One variable (vector) of a plot; variable 0 is the scale, except in an Operating Point plot, which has none. */
export interface RawVariable {
  index: number;
  /** Lower-cased by ngspice: `v(out)`, `i(v1)`, `frequency`, `time`, `v(v-sweep)`. */
  name: string;
  /** `voltage`, `current`, `time`, `frequency`, … */
  type: string;
}

/** One analysis section of a raw file. */
export interface RawPlot {
  title: string;
  plotname: string;
  complex: boolean;
  variables: RawVariable[];
  /** `No. Points` as declared in the header. */
  declaredPoints: number;
  /** Points actually read. */
  points: number;
  /** Real parts, one array per variable, `points` long. */
  real: Float64Array[];
  /** Imaginary parts (complex plots only), one array per variable. */
  imag: Float64Array[] | null;
}

/** A raw file that cannot be read as ASCII raw data; the message names the line. */
export class RawFileError extends Error {
  override name = 'RawFileError';
}

const HEADER_KEY = /^([A-Za-z][A-Za-z. ]*):\s?(.*)$/;

/** Parses every plot of an ASCII raw file, in file order (ngspice writes AC, DC, OP, TRAN whatever the netlist order). */
export function parseRawFile(text: string): RawPlot[] {
  const lines = text.split(/\r?\n/);
  const plots: RawPlot[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].trim() === '') {
      i++;
      continue;
    }
    const start = i;
    const header = new Map<string, string>();
    const variables: RawVariable[] = [];
    // Header lines up to `Variables:`.
    for (; i < lines.length; i++) {
      const m = HEADER_KEY.exec(lines[i]);
      if (!m)
        throw new RawFileError(`line ${i + 1}: expected a header line, found ${JSON.stringify(lines[i].slice(0, 80))}`);
      const key = m[1].trim();
      if (key === 'Binary')
        throw new RawFileError(`line ${i + 1}: binary raw data (run ngspice with SPICE_ASCIIRAWFILE=1)`);
      if (key === 'Variables' || key === 'Values') break;
      header.set(key, m[2].trim());
    }
    if (!header.has('Plotname')) throw new RawFileError(`line ${start + 1}: a plot without a Plotname`);
    const complex = /complex/i.test(header.get('Flags') ?? '');
    const declaredVars = toInt(header.get('No. Variables'), 'No. Variables', start);
    const declaredPoints = toInt(header.get('No. Points'), 'No. Points', start);
    if (lines[i]?.startsWith('Variables:')) {
      for (i++; i < lines.length && /^\s/.test(lines[i]) && lines[i].trim() !== ''; i++) {
        const f = lines[i].trim().split(/\s+/);
        if (f.length < 3 || !/^\d+$/.test(f[0]))
          throw new RawFileError(`line ${i + 1}: malformed variable line ${JSON.stringify(lines[i])}`);
        variables.push({ index: Number(f[0]), name: f[1], type: f[2] });
      }
    }
    if (lines[i]?.startsWith('Binary:'))
      throw new RawFileError(`line ${i + 1}: binary raw data (run ngspice with SPICE_ASCIIRAWFILE=1)`);
    const n = variables.length;
    const real: number[][] = variables.map(() => []);
    const imag: number[][] | null = complex ? variables.map(() => []) : null;
    let points = 0;
    if (lines[i]?.startsWith('Values:')) {
      if (n !== declaredVars)
        throw new RawFileError(`line ${i + 1}: ${n} variable lines but No. Variables: ${declaredVars}`);
      const first = ++i;
      while (i < lines.length && !lines[i].startsWith('Title:')) i++;
      points = readValues(lines.slice(first, i), first, n, real, imag);
    }
    plots.push({
      title: header.get('Title') ?? '',
      plotname: header.get('Plotname')!,
      complex,
      variables,
      declaredPoints,
      points,
      real: real.map((a) => Float64Array.from(a)),
      imag: imag && imag.map((a) => Float64Array.from(a)),
    });
    while (i < lines.length && !lines[i].startsWith('Title:')) i++;
  }
  return plots;
}

/** Reads the `Values:` block: per point an integer index then `n` values (`re,im` when complex). Returns the point count. */
function readValues(block: string[], firstLine: number, n: number, real: number[][], imag: number[][] | null): number {
  // Tokens with their line numbers, commas kept as tokens so `re,im`, `re, im` and `re ,im` all read alike.
  const tokens: string[] = [];
  const lineOf: number[] = [];
  block.forEach((line, k) => {
    for (const t of line.match(/[^\s,]+|,/g) ?? []) {
      tokens.push(t);
      lineOf.push(firstLine + k + 1);
    }
  });
  let t = 0;
  let points = 0;
  const num = (): number => {
    const tok = tokens[t];
    const v = Number(tok);
    if (tok === undefined)
      throw new RawFileError(`line ${lineOf[t - 1] ?? firstLine}: the values end inside point ${points}`);
    if (Number.isNaN(v) && !/^[-+]?nan$/i.test(tok))
      throw new RawFileError(`line ${lineOf[t]}: ${JSON.stringify(tok)} is not a number`);
    t++;
    return v;
  };
  while (t < tokens.length) {
    const idx = tokens[t];
    if (!/^\d+$/.test(idx) || Number(idx) !== points)
      throw new RawFileError(`line ${lineOf[t]}: expected point index ${points}, found ${JSON.stringify(idx)}`);
    t++;
    for (let v = 0; v < n; v++) {
      real[v].push(num());
      if (imag) {
        if (tokens[t] !== ',')
          throw new RawFileError(`line ${lineOf[t] ?? lineOf[t - 1]}: expected a complex value re,im`);
        t++;
        imag[v].push(num());
      }
    }
    points++;
  }
  return points;
}

function toInt(value: string | undefined, key: string, line: number): number {
  const v = Number((value ?? '').trim());
  if (!Number.isInteger(v) || v < 0)
    throw new RawFileError(`line ${line + 1}: plot header has no valid "${key}" (${JSON.stringify(value)})`);
  return v;
}

/** The plot names ngspice writes per analysis type (match plots by name, never by position). */
export const PLOT_NAMES = {
  op: 'Operating Point',
  dc: 'DC transfer characteristic',
  ac: 'AC Analysis',
  transient: 'Transient Analysis',
} as const;
