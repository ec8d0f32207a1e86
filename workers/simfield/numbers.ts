/**
 * Fixed-column number reading on raw bytes (CalculiX writes `E12.5` fields that touch when negative, and `I10`/`I5`
 * ids): no string is made per value, which is what keeps a 64 MB `.frd` under a second.
 */

const POW10 = Array.from({ length: 309 }, (_, k) => Number(`1e${k}`));

/** Thrown for bytes that are not the number the column promised; `offset` locates the line. */
export class ColumnError extends Error {
  override name = 'ColumnError';
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/**
 * Reads a Fortran real from bytes `[s, e)`. The fast path is CalculiX's `E12.5` field (` 1.23456E+01`, `-1.23456E-06`);
 * anything else (`1.0`, `1.00000-100`, blanks around) goes through the general reader.
 */
export function readReal(b: Uint8Array, s: number, e: number): number {
  if (e - s === 12 && b[s + 2] === 46 && b[s + 8] === 69) {
    const d1 = b[s + 1] - 48;
    const d3 = b[s + 3] - 48;
    const d4 = b[s + 4] - 48;
    const d5 = b[s + 5] - 48;
    const d6 = b[s + 6] - 48;
    const d7 = b[s + 7] - 48;
    const e1 = b[s + 10] - 48;
    const e2 = b[s + 11] - 48;
    const sg = b[s];
    const es = b[s + 9];
    if (
      d1 >>> 0 <= 9 &&
      d3 >>> 0 <= 9 &&
      d4 >>> 0 <= 9 &&
      d5 >>> 0 <= 9 &&
      d6 >>> 0 <= 9 &&
      d7 >>> 0 <= 9 &&
      e1 >>> 0 <= 9 &&
      e2 >>> 0 <= 9 &&
      (sg === 32 || sg === 45) &&
      (es === 43 || es === 45)
    ) {
      const mant = ((((d1 * 10 + d3) * 10 + d4) * 10 + d5) * 10 + d6) * 10 + d7;
      const p = (es === 45 ? -(e1 * 10 + e2) : e1 * 10 + e2) - 5;
      const v = p >= 0 ? mant * POW10[p] : mant / POW10[-p];
      return sg === 45 ? -v : v;
    }
  }
  return readRealSlow(b, s, e);
}

function readRealSlow(b: Uint8Array, s: number, e: number): number {
  let i = s;
  while (i < e && b[i] === 32) i++;
  let neg = false;
  if (b[i] === 45) {
    neg = true;
    i++;
  } else if (b[i] === 43) i++;
  let mant = 0;
  let frac = 0;
  let digits = 0;
  let dot = false;
  for (; i < e; i++) {
    const c = b[i];
    if (c >= 48 && c <= 57) {
      mant = mant * 10 + (c - 48);
      digits++;
      if (dot) frac++;
    } else if (c === 46 && !dot) dot = true;
    else break;
  }
  if (digits === 0) throw new ColumnError(`expected a number, found "${text(b, s, e)}"`, s);
  let exp = 0;
  if (i < e) {
    let c = b[i];
    if (c === 69 || c === 101 || c === 68 || c === 100) c = b[++i];
    if (c === 45 || c === 43) {
      const eneg = c === 45;
      i++;
      let ed = 0;
      for (; i < e; i++) {
        const d = b[i];
        if (d < 48 || d > 57) break;
        exp = exp * 10 + (d - 48);
        ed++;
      }
      if (ed === 0) throw new ColumnError(`bad exponent in "${text(b, s, e)}"`, s);
      if (eneg) exp = -exp;
    } else if (c >= 48 && c <= 57) {
      for (; i < e; i++) {
        const d = b[i];
        if (d < 48 || d > 57) break;
        exp = exp * 10 + (d - 48);
      }
    }
  }
  while (i < e && b[i] === 32) i++;
  if (i < e && b[i] !== 10 && b[i] !== 13) throw new ColumnError(`expected a number, found "${text(b, s, e)}"`, s);
  const p = exp - frac;
  let v: number;
  if (p >= 0) v = p > 308 ? Infinity : mant * POW10[p];
  else v = -p > 308 ? mant / POW10[308] / POW10[Math.min(308, -p - 308)] : mant / POW10[-p];
  return neg ? -v : v;
}

/** Reads an integer right-aligned in bytes `[s, e)`. */
export function readInt(b: Uint8Array, s: number, e: number): number {
  let i = s;
  while (i < e && b[i] === 32) i++;
  let neg = false;
  if (b[i] === 45) {
    neg = true;
    i++;
  }
  let v = 0;
  let digits = 0;
  for (; i < e; i++) {
    const c = b[i];
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
    digits++;
  }
  while (i < e && b[i] === 32) i++;
  if (digits === 0 || (i < e && b[i] !== 10 && b[i] !== 13))
    throw new ColumnError(`expected an integer, found "${text(b, s, e)}"`, s);
  return neg ? -v : v;
}

/** The bytes `[s, e)` as text (for messages). */
export function text(b: Uint8Array, s: number, e: number): string {
  return Buffer.from(b.buffer, b.byteOffset + s, Math.max(0, Math.min(e, b.length) - s)).toString('latin1');
}

/** 1-based line number of byte `offset` (counted only when a message needs it). */
export function lineAt(b: Uint8Array, offset: number): number {
  let n = 1;
  let i = -1;
  const buf = Buffer.from(b.buffer, b.byteOffset, Math.min(offset, b.length));
  while ((i = buf.indexOf(10, i + 1)) !== -1) n++;
  return n;
}

/**
 * Rounds to `digits` significant digits so that JSON prints the short decimal (`450.5`, not `450.49999999999994`):
 * an integer divided by an exact power of ten is the double nearest that decimal.
 */
export function roundSig(x: number, digits: number): number {
  if (x === 0 || !Number.isFinite(x)) return x === 0 ? 0 : x;
  const e = Math.floor(Math.log10(Math.abs(x)));
  const k = digits - 1 - e;
  if (k > 0) {
    if (k > 308) return 0;
    const p = POW10[k];
    const r = Math.round(x * p) / p;
    return r === 0 ? 0 : r;
  }
  const p = POW10[-k];
  return Math.round(x / p) * p;
}
