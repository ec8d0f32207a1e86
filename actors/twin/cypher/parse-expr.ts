import type { BinaryOp, Expr, MapEntry } from './ast.ts';
import type { Cursor } from './cursor.ts';

const COMPARISONS: Record<string, BinaryOp> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

function binary(op: BinaryOp, left: Expr, right: Expr, pos: number): Expr {
  return { kind: 'binary', op, left, right, pos };
}

/** Parses one expression: OR < XOR < AND < NOT < comparison < string/list/null predicates < + - < * / % < unary < postfix. */
export function parseExpr(c: Cursor): Expr {
  let left = parseXor(c);
  while (c.atWord('OR')) {
    const pos = c.next().offset;
    left = binary('OR', left, parseXor(c), pos);
  }
  return left;
}

function parseXor(c: Cursor): Expr {
  let left = parseAnd(c);
  while (c.atWord('XOR')) {
    const pos = c.next().offset;
    left = binary('XOR', left, parseAnd(c), pos);
  }
  return left;
}

function parseAnd(c: Cursor): Expr {
  let left = parseNot(c);
  while (c.atWord('AND')) {
    const pos = c.next().offset;
    left = binary('AND', left, parseNot(c), pos);
  }
  return left;
}

function parseNot(c: Cursor): Expr {
  if (c.atWord('NOT')) {
    const pos = c.next().offset;
    return { kind: 'not', arg: parseNot(c), pos };
  }
  return parseComparison(c);
}

/** `a < b < c` means `a < b AND b < c`, as in Cypher. */
function parseComparison(c: Cursor): Expr {
  const first = parsePredicates(c);
  let result: Expr | undefined;
  let left = first;
  for (;;) {
    const t = c.peek();
    const op = t.kind === 'punct' ? COMPARISONS[t.value] : undefined;
    if (!op) {
      if (t.kind === 'punct' && t.value === '=~') {
        throw c.error(
          'Regular expressions (=~) are not supported by twin.query_cypher',
          t.offset,
          'use STARTS WITH, ENDS WITH or CONTAINS',
          'unsupported',
        );
      }
      return result ?? first;
    }
    c.next();
    const right = parsePredicates(c);
    const cmp = binary(op, left, right, t.offset);
    result = result ? binary('AND', result, cmp, t.offset) : cmp;
    left = right;
  }
}

/** Postfix predicates: IS [NOT] NULL, IN, STARTS WITH, ENDS WITH, CONTAINS. */
function parsePredicates(c: Cursor): Expr {
  let left = parseAdditive(c);
  for (;;) {
    const pos = c.peek().offset;
    if (c.eatWord('IS')) {
      const negated = c.eatWord('NOT');
      c.expectWord('NULL', negated ? 'after IS NOT' : 'after IS');
      left = { kind: 'isNull', arg: left, negated, pos };
    } else if (c.eatWord('IN')) {
      left = binary('IN', left, parseAdditive(c), pos);
    } else if (c.atWord('STARTS') || c.atWord('ENDS')) {
      const op = c.next().value.toUpperCase() === 'STARTS' ? 'STARTS WITH' : 'ENDS WITH';
      c.expectWord('WITH', `after ${op.split(' ')[0]}`);
      left = binary(op, left, parseAdditive(c), pos);
    } else if (c.eatWord('CONTAINS')) {
      left = binary('CONTAINS', left, parseAdditive(c), pos);
    } else {
      return left;
    }
  }
}

function parseAdditive(c: Cursor): Expr {
  let left = parseMultiplicative(c);
  while (c.atPunct('+') || c.atPunct('-')) {
    const t = c.next();
    left = binary(t.value as BinaryOp, left, parseMultiplicative(c), t.offset);
  }
  return left;
}

function parseMultiplicative(c: Cursor): Expr {
  let left = parseUnary(c);
  for (;;) {
    if (c.atPunct('^')) {
      throw c.error(
        'The power operator ^ is not supported by twin.query_cypher',
        c.peek().offset,
        undefined,
        'unsupported',
      );
    }
    if (!(c.atPunct('*') || c.atPunct('/') || c.atPunct('%'))) return left;
    const t = c.next();
    left = binary(t.value as BinaryOp, left, parseUnary(c), t.offset);
  }
}

function parseUnary(c: Cursor): Expr {
  if (c.atPunct('-')) {
    const pos = c.next().offset;
    const arg = parseUnary(c);
    // Fold `-3` into a literal so SKIP/LIMIT and property maps see a plain number.
    if (arg.kind === 'literal' && typeof arg.value === 'number') return { kind: 'literal', value: -arg.value, pos };
    return { kind: 'neg', arg, pos };
  }
  if (c.eatPunct('+')) return parseUnary(c);
  return parsePostfix(c);
}

function parsePostfix(c: Cursor): Expr {
  let e = parseAtom(c);
  for (;;) {
    const pos = c.peek().offset;
    if (c.eatPunct('.')) {
      e = { kind: 'prop', target: e, key: c.name('a property key after .', true), pos };
    } else if (c.eatPunct('[')) {
      if (c.atPunct('..')) {
        throw c.error('List slices are not supported by twin.query_cypher', c.peek().offset, undefined, 'unsupported');
      }
      const index = parseExpr(c);
      if (c.atPunct('..')) {
        throw c.error('List slices are not supported by twin.query_cypher', c.peek().offset, undefined, 'unsupported');
      }
      c.expectPunct(']', 'to close the index');
      e = { kind: 'index', target: e, index, pos };
    } else if (c.atPunct(':') && e.kind === 'var') {
      const labels: string[] = [];
      while (c.eatPunct(':')) labels.push(c.name('a label after :'));
      e = { kind: 'hasLabels', target: e, labels, pos };
    } else {
      return e;
    }
  }
}

/** `{key: value, ...}`; the opening brace is the current token. */
export function parseMap(c: Cursor): Extract<Expr, { kind: 'map' }> {
  const pos = c.expectPunct('{', 'to start a map').offset;
  const entries: MapEntry[] = [];
  if (!c.atPunct('}')) {
    do {
      const kpos = c.peek().offset;
      const key = c.name('a property key', true);
      c.expectPunct(':', `after the key '${key}'`);
      entries.push({ key, value: parseExpr(c), pos: kpos });
    } while (c.eatPunct(','));
  }
  c.expectPunct('}', 'to close the map');
  return { kind: 'map', entries, pos };
}

/** True when `(` starts a pattern such as `(a)-->(b)` rather than a parenthesised expression. */
function looksLikePattern(c: Cursor): boolean {
  let k = 1;
  if (c.peek(k).kind === 'word' || c.peek(k).kind === 'quoted') k++;
  while (c.atPunct(':', k) && (c.peek(k + 1).kind === 'word' || c.peek(k + 1).kind === 'quoted')) k += 2;
  if (!c.atPunct(')', k)) return false;
  return (
    (c.atPunct('-', k + 1) && (c.atPunct('-', k + 2) || c.atPunct('[', k + 2))) ||
    (c.atPunct('<', k + 1) && c.atPunct('-', k + 2))
  );
}

function parseAtom(c: Cursor): Expr {
  const t = c.peek();
  const pos = t.offset;
  if (t.kind === 'number') {
    c.next();
    return { kind: 'literal', value: Number(t.value), pos };
  }
  if (t.kind === 'string') {
    c.next();
    return { kind: 'literal', value: t.value, pos };
  }
  if (t.kind === 'param') {
    c.next();
    return { kind: 'param', name: t.value, pos };
  }
  if (t.kind === 'quoted') {
    c.next();
    return { kind: 'var', name: t.value, pos };
  }
  if (t.kind === 'punct') {
    if (t.value === '(') {
      if (looksLikePattern(c)) {
        throw c.error(
          'Pattern expressions are not supported by twin.query_cypher',
          pos,
          'match the pattern with MATCH or OPTIONAL MATCH and test the bound variable',
          'unsupported',
        );
      }
      c.next();
      const inner = parseExpr(c);
      c.expectPunct(')', 'to close the parenthesis');
      return inner;
    }
    if (t.value === '[') {
      c.next();
      const items: Expr[] = [];
      if (!c.atPunct(']')) {
        do items.push(parseExpr(c));
        while (c.eatPunct(','));
      }
      c.expectPunct(']', 'to close the list');
      return { kind: 'list', items, pos };
    }
    if (t.value === '{') return parseMap(c);
    return c.fail('Expected an expression');
  }
  if (t.kind !== 'word') return c.fail('Expected an expression');
  const upper = t.value.toUpperCase();
  if (upper === 'TRUE' || upper === 'FALSE') {
    c.next();
    return { kind: 'literal', value: upper === 'TRUE', pos };
  }
  if (upper === 'NULL') {
    c.next();
    return { kind: 'literal', value: null, pos };
  }
  if (upper === 'CASE') {
    throw c.error(
      'CASE expressions are not supported by twin.query_cypher',
      pos,
      'use coalesce() or filter with WHERE',
      'unsupported',
    );
  }
  if ((upper === 'EXISTS' || upper === 'COUNT' || upper === 'COLLECT') && c.atPunct('{', 1)) {
    throw c.error(`${upper} { ... } subqueries are not supported by twin.query_cypher`, pos, undefined, 'unsupported');
  }
  // A function call: name or namespaced.name followed by `(`.
  let k = 1;
  while (c.atPunct('.', k) && c.peek(k + 1).kind === 'word') k += 2;
  if (c.atPunct('(', k)) return parseCall(c);
  if (!c.atName()) return c.fail('Expected an expression');
  c.next();
  return { kind: 'var', name: t.value, pos };
}

function parseCall(c: Cursor): Expr {
  const pos = c.peek().offset;
  let name = c.next().value;
  while (c.eatPunct('.')) name += `.${c.next().value}`;
  c.expectPunct('(', `after the function name ${name}`);
  if (c.atPunct('*')) {
    c.next();
    c.expectPunct(')', `to close ${name}(*)`);
    return { kind: 'call', name, distinct: false, star: true, args: [], pos };
  }
  const distinct = c.eatWord('DISTINCT');
  const args: Expr[] = [];
  if (!c.atPunct(')')) {
    do args.push(parseExpr(c));
    while (c.eatPunct(','));
  }
  c.expectPunct(')', `to close the arguments of ${name}`);
  return { kind: 'call', name, distinct, star: false, args, pos };
}
