import type { Clause, Expr, NodePattern, Pattern, Query, RelPattern, ReturnItem, SetItem, SortItem } from './ast.ts';
import { Cursor } from './cursor.ts';
import { SUPPORTED_CLAUSES } from './errors.ts';
import { tokenize } from './lexer.ts';
import { parseExpr, parseMap } from './parse-expr.ts';

/** Clauses we recognise only to refuse them by name. */
const UNSUPPORTED_CLAUSES: Record<string, string> = {
  WITH: 'WITH',
  UNWIND: 'UNWIND',
  CALL: 'CALL',
  UNION: 'UNION',
  FOREACH: 'FOREACH',
  LOAD: 'LOAD CSV',
  USE: 'USE',
  SHOW: 'SHOW',
  YIELD: 'YIELD',
  FINISH: 'FINISH',
};

/** Words that start a clause: the skip of a refused MERGE/REMOVE stops at them. */
const CLAUSE_STARTS = new Set([
  'MATCH',
  'OPTIONAL',
  'RETURN',
  'CREATE',
  'MERGE',
  'SET',
  'DELETE',
  'DETACH',
  'REMOVE',
  ...Object.keys(UNSUPPORTED_CLAUSES),
]);

/** Parses the supported Cypher subset into a Query; throws a CypherError naming line, column and what was expected. */
export function parseCypher(text: string): Query {
  const c = new Cursor(text, tokenize(text));
  const clauses: Clause[] = [];
  while (c.peek().kind !== 'eof' && !c.atPunct(';')) {
    const last = clauses.at(-1);
    if (last?.kind === 'return') {
      const word = c.peek().value.toUpperCase();
      if (word in UNSUPPORTED_CLAUSES) throw unsupportedClause(c);
      c.fail(
        'Expected the end of the query after RETURN',
        c.peek(),
        'RETURN (with ORDER BY, SKIP, LIMIT) must be the last clause',
      );
    }
    clauses.push(parseClause(c));
  }
  c.eatPunct(';');
  if (c.peek().kind !== 'eof') c.fail('Expected the end of the query after ;');
  if (clauses.length === 0) c.fail('Expected a clause (MATCH, OPTIONAL MATCH, RETURN)');
  const last = clauses.at(-1)!;
  if (last.kind === 'match') {
    c.fail(
      'Expected RETURN at the end of the query',
      c.peek(),
      'add RETURN with the values you want, for example RETURN n',
    );
  }
  return { clauses, source: text };
}

function unsupportedClause(c: Cursor): Error {
  const t = c.peek();
  const name = UNSUPPORTED_CLAUSES[t.value.toUpperCase()];
  return c.error(
    `${name} is not supported by twin.query_cypher; supported: ${SUPPORTED_CLAUSES}`,
    t.offset,
    undefined,
    'unsupported',
  );
}

function parseClause(c: Cursor): Clause {
  const t = c.peek();
  const pos = t.offset;
  const word = t.kind === 'word' ? t.value.toUpperCase() : '';
  switch (word) {
    case 'MATCH':
      c.next();
      return parseMatch(c, false, pos);
    case 'OPTIONAL':
      c.next();
      c.expectWord('MATCH', 'after OPTIONAL');
      return parseMatch(c, true, pos);
    case 'RETURN':
      c.next();
      return parseReturn(c, pos);
    case 'CREATE':
      c.next();
      return { kind: 'create', patterns: parsePatterns(c), pos };
    case 'SET':
      c.next();
      return parseSet(c, pos);
    case 'DELETE':
    case 'DETACH': {
      c.next();
      if (word === 'DETACH') c.expectWord('DELETE', 'after DETACH');
      const targets: Expr[] = [];
      do targets.push(parseExpr(c));
      while (c.eatPunct(','));
      return { kind: 'delete', detach: word === 'DETACH', targets, pos };
    }
    case 'MERGE':
    case 'REMOVE':
      c.next();
      skipClause(c);
      return { kind: 'unsupportedWrite', keyword: word, pos };
    case 'WHERE':
      throw c.error('WHERE must follow MATCH or OPTIONAL MATCH', pos);
    case 'ORDER':
    case 'SKIP':
    case 'LIMIT':
      throw c.error(`${word === 'ORDER' ? 'ORDER BY' : word} must follow RETURN`, pos);
  }
  if (word in UNSUPPORTED_CLAUSES) throw unsupportedClause(c);
  return c.fail('Expected a clause (MATCH, OPTIONAL MATCH, RETURN)');
}

/** Skips a refused clause up to the next clause keyword outside brackets. */
function skipClause(c: Cursor): void {
  let depth = 0;
  for (;;) {
    const t = c.peek();
    if (t.kind === 'eof' || (depth === 0 && t.kind === 'punct' && t.value === ';')) return;
    if (depth === 0 && t.kind === 'word' && CLAUSE_STARTS.has(t.value.toUpperCase())) return;
    if (t.kind === 'punct' && '([{'.includes(t.value)) depth++;
    if (t.kind === 'punct' && ')]}'.includes(t.value)) depth--;
    c.next();
  }
}

function parseMatch(c: Cursor, optional: boolean, pos: number): Clause {
  const patterns = parsePatterns(c);
  const where = c.eatWord('WHERE') ? parseExpr(c) : undefined;
  return { kind: 'match', optional, patterns, where, pos };
}

function parsePatterns(c: Cursor): Pattern[] {
  const patterns: Pattern[] = [];
  do patterns.push(parsePattern(c));
  while (c.eatPunct(','));
  return patterns;
}

function parsePattern(c: Cursor): Pattern {
  const t = c.peek();
  if (t.kind === 'word' && /^(all)?shortestpath$/i.test(t.value)) {
    throw c.error(
      `${t.value} is not supported by twin.query_cypher`,
      t.offset,
      'use a variable-length relationship such as -[:DEPENDS_ON*1..5]->',
      'unsupported',
    );
  }
  if ((t.kind === 'word' || t.kind === 'quoted') && c.atPunct('=', 1)) {
    throw c.error(
      'Path variables (p = (a)-->(b)) are not supported by twin.query_cypher',
      t.offset,
      'name the nodes and relationships instead and return them',
      'unsupported',
    );
  }
  const start = parseNode(c);
  const steps: Pattern['steps'] = [];
  while (c.atPunct('-') || (c.atPunct('<') && c.atPunct('-', 1))) {
    const rel = parseRel(c);
    steps.push({ rel, node: parseNode(c) });
  }
  return { start, steps, pos: t.offset };
}

function parseNode(c: Cursor): NodePattern {
  const pos = c.expectPunct('(', 'to start a node pattern').offset;
  const variable = c.atName() ? c.name('a variable') : undefined;
  const labels: string[] = [];
  while (c.eatPunct(':')) labels.push(c.name('a label after :'));
  if (c.atPunct('|') || c.atPunct('&') || c.atPunct('!')) {
    throw c.error(
      'Label expressions (|, &, !) on nodes are not supported by twin.query_cypher',
      c.peek().offset,
      'use WHERE n:A OR n:B',
      'unsupported',
    );
  }
  let props: NodePattern['props'];
  if (c.atPunct('{')) props = parseMap(c);
  else if (c.peek().kind === 'param') {
    throw c.error(
      'A parameter as a node property map is not supported',
      c.peek().offset,
      'write the map: (n {id: $id})',
      'unsupported',
    );
  }
  if (c.atWord('WHERE')) {
    throw c.error(
      'WHERE inside a node pattern is not supported',
      c.peek().offset,
      'put the condition in the WHERE of the MATCH',
      'unsupported',
    );
  }
  c.expectPunct(')', 'to close the node pattern');
  return { variable, labels, props, pos };
}

function parseRel(c: Cursor): RelPattern {
  const pos = c.peek().offset;
  const left = c.eatPunct('<');
  c.expectPunct('-', 'in the relationship pattern');
  const rel: RelPattern = { types: [], direction: 'both', pos };
  if (c.eatPunct('[')) {
    if (c.atName()) rel.variable = c.name('a variable');
    if (c.eatPunct(':')) {
      do {
        c.eatPunct(':');
        rel.types.push(c.name('a relationship type'));
      } while (c.eatPunct('|'));
    }
    if (c.eatPunct('*')) rel.range = parseRange(c);
    if (c.atPunct('{')) rel.props = parseMap(c);
    c.expectPunct(']', 'to close the relationship pattern');
  }
  c.expectPunct('-', 'in the relationship pattern');
  const right = c.eatPunct('>');
  rel.direction = left === right ? 'both' : left ? 'in' : 'out';
  return rel;
}

function parseRange(c: Cursor): { min?: number; max?: number } {
  const int = (): number => {
    const t = c.peek();
    if (t.kind !== 'number' || !/^\d+$/.test(t.value)) c.fail('Expected a whole number of hops');
    c.next();
    return Number(t.value);
  };
  const min = c.peek().kind === 'number' ? int() : undefined;
  if (!c.eatPunct('..')) return min === undefined ? {} : { min, max: min };
  const max = c.peek().kind === 'number' ? int() : undefined;
  return { min, max };
}

function parseReturn(c: Cursor, pos: number): Clause {
  const distinct = c.eatWord('DISTINCT');
  const star = c.eatPunct('*');
  const items: ReturnItem[] = [];
  if (!star || c.eatPunct(',')) {
    do {
      const start = c.peek().offset;
      const expr = parseExpr(c);
      const text = c.source.slice(start, c.lastEnd());
      const alias = c.eatWord('AS') ? c.name('an alias after AS') : undefined;
      items.push({ expr, alias, text, pos: start });
    } while (c.eatPunct(','));
  }
  const orderBy: SortItem[] = [];
  if (c.eatWord('ORDER')) {
    c.expectWord('BY', 'after ORDER');
    do {
      const ipos = c.peek().offset;
      const expr = parseExpr(c);
      const descending = c.eatWord('DESC') || c.eatWord('DESCENDING');
      if (!descending && !c.eatWord('ASC')) c.eatWord('ASCENDING');
      orderBy.push({ expr, descending, pos: ipos });
    } while (c.eatPunct(','));
  }
  const skip = c.eatWord('SKIP') ? parseExpr(c) : undefined;
  const limit = c.eatWord('LIMIT') ? parseExpr(c) : undefined;
  return { kind: 'return', distinct, star, items, orderBy, skip, limit, pos };
}

function parseSet(c: Cursor, pos: number): Clause {
  const items: SetItem[] = [];
  do {
    const ipos = c.peek().offset;
    const variable = c.name('a variable to SET');
    if (!c.atPunct('.')) {
      throw c.error(
        'Only SET n.key = value is supported (not SET n = {...}, SET n += {...} or SET n:Label)',
        c.peek().offset,
        undefined,
        'unsupported',
      );
    }
    const dot = c.next().offset;
    const key = c.name('a property key after .', true);
    c.expectPunct('=', `after SET ${variable}.${key}`);
    const target = {
      kind: 'prop' as const,
      target: { kind: 'var' as const, name: variable, pos: ipos },
      key,
      pos: dot,
    };
    items.push({ target, value: parseExpr(c), pos: ipos });
  } while (c.eatPunct(','));
  return { kind: 'set', items, pos };
}
