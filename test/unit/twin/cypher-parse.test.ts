import { describe, expect, it } from 'vitest';
import { compileCypher, CypherError, parseCypher, type CypherOptions } from '../../../actors/twin/cypher/index.ts';

/** The CypherError a call throws (fails the test when it does not throw one). */
function errorOf(fn: () => unknown): CypherError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CypherError);
    return err as CypherError;
  }
  throw new Error('expected a CypherError, nothing was thrown');
}

const compile = (text: string, opts: CypherOptions = {}) => compileCypher(parseCypher(text), opts);

describe('parseCypher: valid queries', () => {
  it('parses MATCH, OPTIONAL MATCH, WHERE and RETURN into clauses', () => {
    const q = parseCypher(
      'MATCH (m:CadModel {item_key: $key})<-[d:DERIVES_FROM]-(s) OPTIONAL MATCH (m)--(x) WHERE x.stale RETURN m, s.name AS sim',
    );
    expect(q.clauses.map((c) => c.kind)).toEqual(['match', 'match', 'return']);
    const [first, second] = q.clauses as Extract<(typeof q.clauses)[number], { kind: 'match' }>[];
    expect(first.optional).toBe(false);
    expect(second.optional).toBe(true);
    expect(first.patterns[0].start).toMatchObject({ variable: 'm', labels: ['CadModel'] });
    expect(first.patterns[0].start.props?.entries[0]).toMatchObject({
      key: 'item_key',
      value: { kind: 'param', name: 'key' },
    });
    expect(first.patterns[0].steps[0].rel).toMatchObject({ variable: 'd', types: ['DERIVES_FROM'], direction: 'in' });
    expect(second.patterns[0].steps[0].rel).toMatchObject({ types: [], direction: 'both' });
    expect(second.where).toMatchObject({ kind: 'prop', key: 'stale' });
  });

  it('reads relationship directions and type alternatives', () => {
    const rel = (p: string) => {
      const m = parseCypher(`MATCH ${p} RETURN 1`).clauses[0] as { patterns: { steps: { rel: unknown }[] }[] };
      return m.patterns[0].steps[0].rel;
    };
    expect(rel('(a)-->(b)')).toMatchObject({ direction: 'out' });
    expect(rel('(a)<--(b)')).toMatchObject({ direction: 'in' });
    expect(rel('(a)--(b)')).toMatchObject({ direction: 'both' });
    expect(rel('(a)<-->(b)')).toMatchObject({ direction: 'both' });
    expect(rel('(a)-[:A|B|:C]-(b)')).toMatchObject({ types: ['A', 'B', 'C'], direction: 'both' });
  });

  it('reads variable-length ranges', () => {
    const range = (r: string) => {
      const m = parseCypher(`MATCH (a)-[:DEPENDS_ON${r}]->(b) RETURN b`).clauses[0] as {
        patterns: { steps: { rel: { range?: unknown } }[] }[];
      };
      return m.patterns[0].steps[0].rel.range;
    };
    expect(range('*')).toEqual({});
    expect(range('*2')).toEqual({ min: 2, max: 2 });
    expect(range('*1..3')).toEqual({ min: 1, max: 3 });
    expect(range('*..4')).toEqual({ min: undefined, max: 4 });
    expect(range('*2..')).toEqual({ min: 2, max: undefined });
    expect(range('')).toBeUndefined();
  });

  it('gives NOT, AND, OR and arithmetic their Cypher precedence', () => {
    const q = parseCypher('MATCH (n) WHERE n.a = 1 OR n.b + 2 * 3 > 4 AND NOT n.c IS NULL RETURN n');
    const where = (q.clauses[0] as { where: unknown }).where;
    expect(where).toMatchObject({
      kind: 'binary',
      op: 'OR',
      left: { op: '=' },
      right: {
        op: 'AND',
        left: { op: '>', left: { op: '+', right: { op: '*' } } },
        right: { kind: 'not', arg: { kind: 'isNull', negated: false } },
      },
    });
  });

  it('reads string predicates, IN and chained comparisons', () => {
    const where = (text: string) =>
      (parseCypher(`MATCH (n) WHERE ${text} RETURN n`).clauses[0] as { where: unknown }).where;
    expect(where("n.name STARTS WITH 'Br'")).toMatchObject({ op: 'STARTS WITH' });
    expect(where("n.name ENDS WITH 'et'")).toMatchObject({ op: 'ENDS WITH' });
    expect(where("n.name CONTAINS 'ack'")).toMatchObject({ op: 'CONTAINS' });
    expect(where('n.revision IN [1, 2]')).toMatchObject({ op: 'IN', right: { kind: 'list' } });
    expect(where('1 < n.revision <= 3')).toMatchObject({ op: 'AND', left: { op: '<' }, right: { op: '<=' } });
    expect(where('n:CadModel XOR n:Intent')).toMatchObject({
      op: 'XOR',
      left: { kind: 'hasLabels', labels: ['CadModel'] },
    });
  });

  it('keeps RETURN item text, aliases, DISTINCT, ORDER BY, SKIP and LIMIT', () => {
    const r = parseCypher(
      'MATCH (n) RETURN DISTINCT n.node_type,  count( * ) AS c ORDER BY c DESC, n.node_type SKIP $s LIMIT 5;',
    ).clauses[1];
    expect(r).toMatchObject({
      kind: 'return',
      distinct: true,
      items: [{ text: 'n.node_type' }, { text: 'count( * )', alias: 'c' }],
      orderBy: [{ descending: true }, { descending: false }],
      skip: { kind: 'param', name: 's' },
      limit: { kind: 'literal', value: 5 },
    });
  });

  it('accepts comments, backtick names, both quote styles and escapes', () => {
    const q = parseCypher(
      "// find it\nMATCH (`my node` /* inline */ {name: \"it's\", note: 'a\\'b\\n'}) RETURN `my node`.`odd key`",
    );
    const m = q.clauses[0] as { patterns: { start: { variable: string; props: { entries: { value: unknown }[] } } }[] };
    expect(m.patterns[0].start.variable).toBe('my node');
    expect(m.patterns[0].start.props.entries.map((e) => e.value)).toMatchObject([
      { value: "it's" },
      { value: "a'b\n" },
    ]);
    expect(q.clauses[1]).toMatchObject({ items: [{ expr: { kind: 'prop', key: 'odd key' } }] });
  });
});

describe('parseCypher: errors name the position and what was expected', () => {
  it('names line and column of a missing parenthesis', () => {
    const e = errorOf(() => parseCypher('MATCH (n:CadModel\nRETURN n'));
    expect(e.kind).toBe('syntax');
    expect(e.position).toEqual({ offset: 18, line: 2, column: 1 });
    expect(e.message).toBe("Expected ')' to close the node pattern, found 'RETURN' (line 2, column 1)");
  });

  it('names the end of the query when it stops early', () => {
    const e = errorOf(() => parseCypher('MATCH (n) RETURN n.name AS'));
    expect(e.message).toMatch(/^Expected an alias after AS, found the end of the query \(line 1, column 27\)/);
  });

  it('points at an unterminated string', () => {
    const e = errorOf(() => parseCypher("MATCH (n)\n  WHERE n.name = 'Bra\nRETURN n"));
    expect(e.position).toMatchObject({ line: 2, column: 18 });
    expect(e.message).toMatch(/Unterminated string/);
  });

  it('asks for RETURN when a read query has none', () => {
    const e = errorOf(() => parseCypher('MATCH (n)'));
    expect(e.message).toMatch(/Expected RETURN at the end of the query/);
  });

  it('names a misspelt clause', () => {
    const e = errorOf(() => parseCypher('MATCH (n) RETRUN n'));
    expect(e.message).toBe("Expected a clause (MATCH, OPTIONAL MATCH, RETURN), found 'RETRUN' (line 1, column 11)");
  });

  it('refuses anything after RETURN', () => {
    expect(() => parseCypher('MATCH (n) RETURN n MATCH (m) RETURN m')).toThrow(
      /Expected the end of the query after RETURN/,
    );
  });

  it.each([
    ['UNWIND [1, 2] AS x RETURN x', 'UNWIND'],
    ['MATCH (n) WITH n RETURN n', 'WITH'],
    ['CALL db.labels() YIELD label RETURN label', 'CALL'],
    ['MATCH (n) RETURN n UNION MATCH (m) RETURN m', 'UNION'],
    ['LOAD CSV FROM "x" AS row RETURN row', 'LOAD CSV'],
  ])('names the unsupported clause in %s', (text, clause) => {
    const e = errorOf(() => parseCypher(text));
    expect(e.kind).toBe('unsupported');
    expect(e.message).toContain(
      `${clause} is not supported by twin.query_cypher; supported: MATCH, OPTIONAL MATCH, WHERE, RETURN, ORDER BY, SKIP, LIMIT`,
    );
  });

  it.each([
    ['MATCH p = (a)-->(b) RETURN p', /Path variables/],
    ['MATCH (a), (b), shortestPath((a)-[*]-(b)) RETURN a', /shortestPath is not supported/],
    ["MATCH (n) WHERE n.name =~ 'B.*' RETURN n", /Regular expressions/],
    ['MATCH (n) RETURN CASE WHEN n.stale THEN 1 END', /CASE expressions/],
    ['MATCH (a) WHERE (a)-->() RETURN a', /Pattern expressions/],
    ['MATCH (n:A|B) RETURN n', /Label expressions/],
  ])('names the unsupported construct in %s', (text, message) => {
    const e = errorOf(() => parseCypher(text));
    expect(e.kind).toBe('unsupported');
    expect(e.message).toMatch(message);
  });
});

describe('compileCypher: refusals', () => {
  it.each([
    "CREATE (n:Intent {name: 'x'})",
    "MERGE (n:Intent {name: 'x'}) RETURN n",
    "MATCH (n) SET n.material = 'steel'",
    'MATCH ()-[r]->() DELETE r',
    'MATCH (n) DETACH DELETE n',
    'MATCH (n) REMOVE n.material',
  ])('refuses the write %s without --allow-twin-mutations', (text) => {
    const e = errorOf(() => compile(text));
    expect(e.kind).toBe('read_only');
    expect(e.message).toMatch(
      /^twin\.query_cypher is read-only; the server was not started with --allow-twin-mutations/,
    );
  });

  it('refuses writes it does not support even when mutations are allowed', () => {
    expect(errorOf(() => compile("MERGE (n {name: 'x'})", { allowMutations: true })).message).toMatch(
      /MERGE is not supported by twin.query_cypher, even with --allow-twin-mutations/,
    );
    expect(errorOf(() => compile('MATCH (n) DELETE n', { allowMutations: true })).message).toMatch(
      /Deleting nodes is not supported/,
    );
    expect(errorOf(() => compile('MATCH (n) SET n.revision = 3', { allowMutations: true })).message).toMatch(
      /n.revision is kept by the twin itself/,
    );
    expect(errorOf(() => compile('MATCH (n) SET n.x = 1 RETURN n', { allowMutations: true })).message).toMatch(
      /RETURN after a write is not supported/,
    );
    expect(errorOf(() => compile('MATCH (a) CREATE (a)-[:T]->(b:New)', { allowMutations: true })).message).toMatch(
      /CREATE can only connect nodes bound by MATCH/,
    );
  });

  it('refuses a project-scoped query that never binds $project_id, saying how to fix it', () => {
    const e = errorOf(() => compile('MATCH (n:CadModel) RETURN n', { projectScope: 'p1' }));
    expect(e.kind).toBe('project_scope');
    expect(e.message).toContain(
      'This call is scoped to a project: bind it, for example MATCH (n {project_id: $project_id})',
    );
    expect(e.message).toContain('$project_id is supplied for you');
  });

  it('refuses a $project_id that only appears in RETURN, since it filters nothing', () => {
    const e = errorOf(() => compile('MATCH (n) RETURN n, $project_id AS p', { projectScope: 'p1' }));
    expect(e.kind).toBe('project_scope');
  });

  it('binds $project_id to the scope and refuses another project', () => {
    const c = compile('MATCH (n {project_id: $project_id}) RETURN n', { projectScope: 'p1' });
    expect(c.params).toContain('p1');
    const e = errorOf(() =>
      compile('MATCH (n {project_id: $project_id}) RETURN n', { projectScope: 'p1', params: { project_id: 'p2' } }),
    );
    expect(e.kind).toBe('project_scope');
  });

  it('names a missing parameter and an undefined variable with their positions', () => {
    const p = errorOf(() => compile('MATCH (n) WHERE n.name = $name RETURN n', { params: { other: 1 } }));
    expect(p.message).toBe('Parameter $name was not supplied (line 1, column 26)');
    expect(p.hint).toBe('supplied parameters: $other');
    const v = errorOf(() => compile('MATCH (n) RETURN m.name'));
    expect(v.message).toBe('Variable `m` is not defined (line 1, column 18)');
  });

  it('refuses unknown functions, misplaced aggregates and paths past the depth cap', () => {
    expect(errorOf(() => compile('MATCH (n) RETURN apoc.text.join(n.name)')).hint).toMatch(
      /supported functions: id, labels, type/,
    );
    expect(errorOf(() => compile('MATCH (n) WHERE count(n) > 1 RETURN n')).message).toMatch(/only allowed in RETURN/);
    expect(errorOf(() => compile('MATCH (a)-[*1..11]->(b) RETURN b')).message).toMatch(/capped at 10 hops/);
    expect(errorOf(() => compile('MATCH (n) RETURN n LIMIT -1')).message).toMatch(
      /LIMIT takes a non-negative whole number/,
    );
    expect(errorOf(() => compile('MATCH (n) RETURN n.name, n.name')).message).toMatch(
      /Two RETURN columns are named n.name/,
    );
  });
});

describe('compileCypher: SQL', () => {
  it('binds every value and property key as a parameter, never into the SQL text', () => {
    const evil = "x'); DROP TABLE twin_nodes; --";
    const c = compile(
      `MATCH (n:\`Evil'Label\` {\`odd'key\`: '${evil.replace(/'/g, "\\'")}'}) WHERE n.name = $p RETURN n.\`other'key\` AS v`,
      {
        params: { p: 'robert"; DELETE' },
      },
    );
    expect(c.sql).not.toContain('DROP');
    expect(c.sql).not.toContain("odd'key");
    expect(c.sql).not.toContain("other'key");
    expect(c.sql).not.toContain('Evil');
    expect(c.sql).not.toContain('robert');
    expect(c.params).toEqual(expect.arrayContaining([JSON.stringify(evil), "odd'key", "other'key", 'robert"; DELETE']));
  });

  it('compares a column with a known value natively and leaves no unused parameter', () => {
    const c = compile("MATCH (n) WHERE n.project_id = 'p1' AND n.revision >= 2 RETURN n.name");
    expect(c.sql).toContain('.project_id = $');
    expect(c.sql).toContain('.revision >= $');
    for (let i = 1; i <= c.params.length; i++) expect(c.sql).toContain(`$${i}::`);
  });

  it('reports the result columns by alias or by the expression as written', () => {
    expect(compile('MATCH (n) RETURN n.name, count(*) AS c, toLower(n.name)').columns).toEqual([
      'n.name',
      'c',
      'toLower(n.name)',
    ]);
  });
});
