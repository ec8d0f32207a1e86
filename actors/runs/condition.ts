/**
 * The phase condition grammar (SPEC "Phase (graph) fields"): `fact == value`, `fact != value`, `fact in [a, b]`,
 * `fact not in [a, b]`, joined by `and`. Values are bare words, numbers, booleans or quoted strings. Pure.
 */
export type Clause =
  { fact: string; op: '==' | '!='; value: string } | { fact: string; op: 'in' | 'not in'; values: string[] };

/** A condition that does not parse, with the 1-based column where it went wrong. */
export class ConditionError extends Error {
  override name = 'ConditionError';
  readonly position: number;
  constructor(message: string, position: number) {
    super(`condition does not parse at position ${position}: ${message}`);
    this.position = position;
  }
}

interface Token {
  kind: 'word' | 'string' | 'op' | '[' | ']' | ',';
  text: string;
  pos: number;
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const pos = i + 1;
    if (c === '[' || c === ']' || c === ',') {
      out.push({ kind: c, text: c, pos });
      i++;
    } else if (src.startsWith('==', i) || src.startsWith('!=', i)) {
      out.push({ kind: 'op', text: src.slice(i, i + 2), pos });
      i += 2;
    } else if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new ConditionError('unterminated string', pos);
      out.push({ kind: 'string', text: src.slice(i + 1, end), pos });
      i = end + 1;
    } else if (/[A-Za-z0-9_.:\-]/.test(c)) {
      let j = i;
      while (j < src.length && /[A-Za-z0-9_.:\-]/.test(src[j])) j++;
      out.push({ kind: 'word', text: src.slice(i, j), pos });
      i = j;
    } else {
      throw new ConditionError(`unexpected character ${JSON.stringify(c)}`, pos);
    }
  }
  return out;
}

/** Parses a condition; throws ConditionError naming the position. */
export function parseCondition(src: string): Clause[] {
  const toks = tokenize(src);
  let k = 0;
  const end = src.length + 1;
  const peek = () => toks[k];
  const expect = (what: string, ok: (t: Token) => boolean): Token => {
    const t = toks[k];
    if (!t || !ok(t))
      throw new ConditionError(
        `expected ${what}${t ? `, found ${JSON.stringify(t.text)}` : ' at the end'}`,
        t?.pos ?? end,
      );
    k++;
    return t;
  };
  const value = () => expect('a value', (t) => t.kind === 'word' || t.kind === 'string').text;
  const clauses: Clause[] = [];
  for (;;) {
    const fact = expect(
      'a fact name',
      (t) => t.kind === 'word' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(t.text) && t.text !== 'and',
    ).text;
    const t = peek();
    if (t?.kind === 'op') {
      k++;
      clauses.push({ fact, op: t.text as '==' | '!=', value: value() });
    } else if (t?.kind === 'word' && (t.text === 'in' || t.text === 'not')) {
      k++;
      if (t.text === 'not') expect('"in" after "not"', (x) => x.kind === 'word' && x.text === 'in');
      expect('"["', (x) => x.kind === '[');
      const values = [value()];
      while (peek()?.kind === ',') {
        k++;
        values.push(value());
      }
      expect('"]"', (x) => x.kind === ']');
      clauses.push({ fact, op: t.text === 'not' ? 'not in' : 'in', values });
    } else {
      throw new ConditionError(
        `expected ==, !=, in or not in${t ? `, found ${JSON.stringify(t.text)}` : ' at the end'}`,
        t?.pos ?? end,
      );
    }
    if (k === toks.length) return clauses;
    expect('"and"', (x) => x.kind === 'word' && x.text === 'and');
  }
}

/** Evaluates a parsed condition over frozen facts; a missing fact compares as the empty string. */
export function evaluateCondition(clauses: Clause[], facts: Record<string, unknown>): boolean {
  return clauses.every((c) => {
    const v = facts[c.fact] === undefined || facts[c.fact] === null ? '' : String(facts[c.fact]);
    if ('value' in c) return (v === c.value) === (c.op === '==');
    return c.values.includes(v) === (c.op === 'in');
  });
}
