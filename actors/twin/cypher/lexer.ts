import { errorAt } from './errors.ts';

/** Token kinds: words (keywords are words, recognised by the parser), literals, parameters and punctuation. */
export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'param' | 'punct' | 'eof';

/** One token with its offset in the query text. `value` is the decoded text (string contents, word as written). */
export interface Token {
  kind: TokenKind;
  value: string;
  offset: number;
  end: number;
}

// Longest first: the parser itself combines `<` `-` and `-` `>` into arrows, so `a<-1` stays a comparison.
const PUNCTUATION = [
  '..',
  '<>',
  '<=',
  '>=',
  '!=',
  '=~',
  '+=',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  '.',
  ':',
  '|',
  '*',
  '+',
  '-',
  '/',
  '%',
  '=',
  '<',
  '>',
  ';',
  '^',
];

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '\\': '\\', "'": "'", '"': '"' };

function isWordStart(c: string): boolean {
  return /[A-Za-z_\u00C0-\uFFFF]/.test(c);
}

function isWordPart(c: string): boolean {
  return /[A-Za-z0-9_\u00C0-\uFFFF]/.test(c);
}

/** Splits Cypher text into tokens; comments (`//`, `/* *\/`) and whitespace are dropped. Throws a positioned CypherError. */
export function tokenize(source: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const close = source.indexOf('*/', i + 2);
      if (close < 0) throw errorAt('syntax', source, i, 'Unterminated comment: expected */');
      i = close + 2;
      continue;
    }
    const start = i;
    if (c === "'" || c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= n) throw errorAt('syntax', source, start, `Unterminated string: expected a closing ${c}`);
        const d = source[i];
        if (d === c) break;
        if (d === '\\') {
          const e = source[i + 1];
          if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) {
            value += String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          if (e === undefined || !(e in ESCAPES)) {
            throw errorAt('syntax', source, i, `Invalid escape sequence \\${e ?? ''} in a string`);
          }
          value += ESCAPES[e];
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      i++;
      out.push({ kind: 'string', value, offset: start, end: i });
      continue;
    }
    if (c === '`') {
      const close = source.indexOf('`', i + 1);
      if (close < 0) throw errorAt('syntax', source, i, 'Unterminated quoted name: expected a closing `');
      out.push({ kind: 'quoted', value: source.slice(i + 1, close), offset: start, end: close + 1 });
      i = close + 1;
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < n && /[0-9]/.test(source[i])) i++;
      // `1..3` is a range: only a dot followed by a digit continues the number.
      if (source[i] === '.' && /[0-9]/.test(source[i + 1] ?? '')) {
        i++;
        while (i < n && /[0-9]/.test(source[i])) i++;
      }
      if (
        /[eE]/.test(source[i] ?? '') &&
        /[0-9]/.test(source[i + 1] === '-' || source[i + 1] === '+' ? (source[i + 2] ?? '') : (source[i + 1] ?? ''))
      ) {
        i += source[i + 1] === '-' || source[i + 1] === '+' ? 2 : 1;
        while (i < n && /[0-9]/.test(source[i])) i++;
      }
      if (i < n && isWordPart(source[i])) {
        throw errorAt('syntax', source, start, `Invalid number '${source.slice(start, i + 1)}'`);
      }
      out.push({ kind: 'number', value: source.slice(start, i), offset: start, end: i });
      continue;
    }
    if (c === '$') {
      i++;
      if (source[i] === '`') {
        const close = source.indexOf('`', i + 1);
        if (close < 0) throw errorAt('syntax', source, i, 'Unterminated quoted parameter name: expected a closing `');
        out.push({ kind: 'param', value: source.slice(i + 1, close), offset: start, end: close + 1 });
        i = close + 1;
        continue;
      }
      while (i < n && isWordPart(source[i])) i++;
      if (i === start + 1) throw errorAt('syntax', source, start, 'Expected a parameter name after $');
      out.push({ kind: 'param', value: source.slice(start + 1, i), offset: start, end: i });
      continue;
    }
    if (isWordStart(c)) {
      while (i < n && isWordPart(source[i])) i++;
      out.push({ kind: 'word', value: source.slice(start, i), offset: start, end: i });
      continue;
    }
    const p = PUNCTUATION.find((s) => source.startsWith(s, i));
    if (!p) throw errorAt('syntax', source, i, `Unexpected character '${c}'`);
    out.push({ kind: 'punct', value: p, offset: start, end: i + p.length });
    i += p.length;
  }
  out.push({ kind: 'eof', value: '', offset: n, end: n });
  return out;
}

/** How a token is quoted in error messages. */
export function describeToken(t: Token): string {
  if (t.kind === 'eof') return 'the end of the query';
  if (t.kind === 'string') return `the string '${t.value}'`;
  if (t.kind === 'param') return `$${t.value}`;
  return `'${t.value}'`;
}
