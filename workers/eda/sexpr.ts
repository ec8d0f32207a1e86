/**
 * A KiCad S-expression reader. A list is an array whose first element is its head token (`(at 1 2 90)` reads as
 * `['at', '1', '2', '90']`); atoms stay strings, quoted or not (KiCad quotes names, never numbers). Malformed text is a
 * SexprError naming the line and the token; nothing is guessed.
 */
export type SAtom = string;
export type SList = [string, ...SExpr[]];
export type SExpr = SAtom | SList;

export class SexprError extends Error {
  override name = 'SexprError';
  readonly line: number;
  readonly token: string | undefined;
  constructor(message: string, line: number, token?: string) {
    super(`line ${line}: ${message}${token ? ` (at "${token}")` : ''}`);
    this.line = line;
    this.token = token;
  }
}

const OPEN = 40; // (
const CLOSE = 41; // )
const QUOTE = 34; // "
const BACKSLASH = 92;
const NL = 10;

const isSpace = (c: number) => c === 32 || c === NL || c === 9 || c === 13;

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"' };
/**
 * A quoted string's text with its escapes resolved, in one pass into a buffer: a concatenation (or a replace callback)
 * per escape made millions of pieces of a string of escapes and ran the reader out of memory (issue 27, finding 5).
 */
function unescape(raw: string): string {
  const out = new Uint16Array(raw.length);
  let k = 0;
  for (let j = 0; j < raw.length; j++) {
    let c = raw.charCodeAt(j);
    if (c === BACKSLASH && j + 1 < raw.length) {
      const mapped = ESCAPES[raw[++j]!];
      c = mapped === undefined ? raw.charCodeAt(j) : mapped.charCodeAt(0);
    }
    out[k++] = c;
  }
  let s = '';
  for (let j = 0; j < k; j += 8192) s += String.fromCharCode(...out.subarray(j, Math.min(k, j + 8192)));
  return s;
}

/**
 * Reads one top-level list (a KiCad file holds exactly one); `budget.token()` is called per list and atom read. A list
 * whose head is in `skip` is checked (its parentheses and strings must close) and left out of the tree: a reader that
 * never looks at text effects or graphics keeps none of them (KiCad 9's vme-wren: 44% of the lists are `effects` and
 * what they hold). Each list inside a skipped one still counts a token.
 */
export function parseSexpr(text: string, budget?: { token(): void }, skip?: ReadonlySet<string>): SList {
  let i = 0;
  let line = 1;
  const n = text.length;
  const stack: SExpr[][] = [];
  let root: SList | undefined;
  /** Past the rest of a list whose head was just read: to its closing parenthesis, through nested lists and strings. */
  const skipList = () => {
    const startLine = line;
    for (let depth = 1; depth > 0; i++) {
      if (i >= n) throw new SexprError(`unexpected end of file: ${stack.length + 1} list(s) not closed`, startLine);
      const d = text.charCodeAt(i);
      if (d === NL) line++;
      else if (d === OPEN) {
        budget?.token();
        depth++;
      } else if (d === CLOSE) depth--;
      else if (d === QUOTE) {
        for (i++; ; i++) {
          if (i >= n) throw new SexprError('unterminated string', line);
          const e = text.charCodeAt(i);
          if (e === QUOTE) break;
          if (e === NL) line++;
          else if (e === BACKSLASH) i++;
        }
      }
    }
  };
  const skipSpace = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (!isSpace(c)) return;
      if (c === NL) line++;
      i++;
    }
  };
  for (;;) {
    skipSpace();
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (root && stack.length === 0)
      throw new SexprError('text after the closing parenthesis', line, text.slice(i, i + 20));
    if (c === OPEN) {
      i++;
      budget?.token();
      stack.push([]);
      continue;
    }
    if (stack.length === 0) throw new SexprError('not an S-expression: expected "("', line, text.slice(i, i + 20));
    if (c === CLOSE) {
      i++;
      const list = stack.pop()!;
      if (list.length === 0 || typeof list[0] !== 'string') throw new SexprError('a list without a head token', line);
      if (stack.length === 0) root = list as SList;
      else stack[stack.length - 1]!.push(list as SList);
      continue;
    }
    let atom: string;
    if (c === QUOTE) {
      const startLine = line;
      i++;
      const from = i;
      let escaped = false;
      for (;;) {
        if (i >= n) throw new SexprError('unterminated string', startLine);
        const d = text.charCodeAt(i);
        if (d === QUOTE) break;
        if (d === NL) line++;
        if (d === BACKSLASH) {
          escaped = true;
          i += 2;
          continue;
        }
        i++;
      }
      atom = escaped ? unescape(text.slice(from, i)) : text.slice(from, i);
      i++;
    } else {
      const from = i;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (isSpace(d) || d === OPEN || d === CLOSE || d === QUOTE) break;
        i++;
      }
      atom = text.slice(from, i);
    }
    budget?.token();
    const top = stack[stack.length - 1]!;
    if (top.length === 0 && stack.length > 1 && skip?.has(atom)) {
      stack.pop();
      skipList();
      continue;
    }
    top.push(atom);
  }
  if (stack.length > 0) throw new SexprError(`unexpected end of file: ${stack.length} list(s) not closed`, line);
  if (!root) throw new SexprError('empty file: no S-expression', line);
  return root;
}

/** The child lists of `list` whose head is `head`. */
export function children(list: SList, head: string): SList[] {
  const out: SList[] = [];
  for (let k = 1; k < list.length; k++) {
    const e = list[k]!;
    if (typeof e !== 'string' && e[0] === head) out.push(e);
  }
  return out;
}

/** The first child list whose head is `head`. */
export function child(list: SList, head: string): SList | undefined {
  for (let k = 1; k < list.length; k++) {
    const e = list[k]!;
    if (typeof e !== 'string' && e[0] === head) return e;
  }
  return undefined;
}

/** The atom at `index` of the child `head` (`(uuid abc)` -> 'abc'). */
export function atom(list: SList, head: string, index = 1): string | undefined {
  const c = child(list, head);
  const v = c?.[index];
  return typeof v === 'string' ? v : undefined;
}

/** A number atom; NaN-free (a missing or malformed one is `fallback`). */
export function num(v: SExpr | undefined, fallback = 0): number {
  if (typeof v !== 'string') return fallback;
  const x = Number(v);
  return Number.isFinite(x) ? x : fallback;
}

/**
 * Whether a flag is set: the bare atom of KiCad 6 to 8 (`(pin passive line ... hide)`) or the boolean list KiCad 9
 * writes (`(hide yes)`, schematic version 20241004 on); `(hide no)` is unset.
 */
export function hasFlag(list: SList, flag: string): boolean {
  for (let k = 1; k < list.length; k++) {
    const e = list[k]!;
    if (e === flag) return true;
    if (typeof e !== 'string' && e[0] === flag) return e.length === 1 || e[1] === 'yes';
  }
  return false;
}

/** `(property "Name" "Value" ...)` children as a map. */
export function properties(list: SList): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of children(list, 'property')) {
    if (typeof p[1] === 'string' && typeof p[2] === 'string') out.set(p[1], p[2]);
  }
  return out;
}
