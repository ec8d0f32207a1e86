import { describe, expect, it } from 'vitest';
import type { CypherOptions } from '../../../actors/twin/cypher/index.ts';
import { N, useCypherGraph } from '../../support/cypher-graph.ts';
import { describeEachDb, type MakeDb } from '../../support/pg.ts';

/** Reads over the real schema, run on PGlite and on PostgreSQL: the generated SQL must work on both. */
function describeCypher(backend: string, make: MakeDb): void {
  describe(`twin.query_cypher reads on ${backend}`, () => {
    const { run, column, failure } = useCypherGraph(make);

    it('matches a label as written and in PascalCase, hiding drafts and abandoned revisions', async () => {
      const q = (label: string) =>
        column(`MATCH (n:${label}) WHERE n.project_id = 'p1' RETURN n.revision AS rev ORDER BY rev`, 'rev');
      expect(await q('cad_model')).toEqual([1, 2]);
      expect(await q('CadModel')).toEqual([1, 2]);
      expect(await column('MATCH (n:SimulationResult) RETURN n.name AS name', 'name')).toEqual(['Bracket FEA']);
    });

    it('lets Node and WorkProduct match every visible node', async () => {
      const count = async (label: string, runId?: string) =>
        (await run(`MATCH (n:${label} {project_id: 'p1'}) RETURN count(*) AS c`, { runId })).rows[0].c;
      expect(await count('Node')).toBe(9);
      expect(await count('WorkProduct')).toBe(9);
      expect(await count('Node', 'r1')).toBe(10);
    });

    it('filters on columns and on JSON properties with their JSON types', async () => {
      expect(await column("MATCH (n {material: 'steel'}) RETURN n.revision AS r", 'r')).toEqual([1]);
      expect(await column('MATCH (n {mass_kg: 1.2}) RETURN n.revision AS r', 'r')).toEqual([2]);
      expect(await column('MATCH (n {machined: true}) RETURN n.revision AS r', 'r')).toEqual([1]);
      expect(await column("MATCH (n {item_key: 'BRK', revision: 2}) RETURN n.name AS name", 'name')).toEqual([
        'Bracket',
      ]);
      // A string is not a number: '1.2' matches only the property that holds the string.
      expect(await column("MATCH (n) WHERE n.code = '1.2' OR n.mass_kg = '1.2' RETURN n.revision AS r", 'r')).toEqual([
        2,
      ]);
      expect(
        await column('MATCH (n) WHERE n.mass_kg < 1.3 AND n.mass_kg >= 0.5 RETURN n.name AS name', 'name'),
      ).toEqual(['Bracket']);
    });

    it('returns nodes and relationships as objects', async () => {
      const { rows, columns } = await run(
        'MATCH (s:SimulationResult)-[d:DERIVES_FROM]->(m) RETURN s, d, m.item_key AS key',
      );
      expect(columns).toEqual(['s', 'd', 'key']);
      expect(rows[0].s).toMatchObject({
        id: N.sim,
        node_type: 'simulation_result',
        name: 'Bracket FEA',
        project_id: 'p1',
        properties: { passed: true },
      });
      expect(rows[0].d).toEqual({
        id: expect.any(Number),
        type: 'DERIVES_FROM',
        src: N.sim,
        dst: N.bracket2,
        properties: { revision: 2 },
      });
      expect(rows[0].key).toBe('BRK');
    });

    it('follows relationship directions and type alternatives', async () => {
      const out = "MATCH (a {item_key: 'BRK', revision: 2})-[r:REVISION_OF]->(b) RETURN b.revision AS x";
      expect(await column(out, 'x')).toEqual([1]);
      const inward = "MATCH (a {item_key: 'BRK', revision: 2})<-[:REVISION_OF]-(b) RETURN b.revision AS x";
      expect(await column(inward, 'x')).toEqual([]);
      expect(await column(inward, 'x', { runId: 'r1' })).toEqual([3]);
      const both =
        "MATCH (a {item_key: 'BRK', revision: 2})-[r:REVISION_OF|SATISFIES]-(b) RETURN type(r) AS t, b.name AS n ORDER BY t";
      expect((await run(both)).rows).toEqual([
        { t: 'REVISION_OF', n: 'Bracket' },
        { t: 'SATISFIES', n: 'Bracket limits' },
      ]);
      const reasons = "MATCH (a:CadModel {project_id: 'p1'})-[r]->(b:CadModel) RETURN r.change_reason AS c ORDER BY c";
      expect(await column(reasons, 'c')).toEqual(['lighter', null]);
    });

    it('follows variable-length paths, with bounds', async () => {
      const from =
        'MATCH (s:SimulationResult)-[:DERIVES_FROM|REVISION_OF|SATISFIES*]->(x) RETURN DISTINCT x.name AS name ORDER BY name';
      expect(await column(from, 'name')).toEqual(['Bracket', 'Bracket limits', 'Lift 5 kg']);
      const two = 'MATCH (s:SimulationResult)-[r*2]->(x) RETURN x.name AS name, size(r) AS hops ORDER BY name';
      expect((await run(two)).rows).toEqual([
        { name: 'Bracket', hops: 2 },
        { name: 'Bracket', hops: 2 },
        { name: 'Bracket limits', hops: 2 },
      ]);
      expect(await column('MATCH (i:Intent)<-[*..2]-(x) RETURN x.node_type AS t ORDER BY t', 't')).toEqual([
        'cad_model',
        'constraint_set',
      ]);
      expect(await column('MATCH (s:SimulationResult)-[*0..1]->(x) RETURN x.node_type AS t ORDER BY t', 't')).toEqual([
        'cad_model',
        'simulation_result',
      ]);
    });

    it('terminates on a cycle, using each relationship once per path', async () => {
      const q = "MATCH (a {name: 'K1'})-[:DEPENDS_ON*]->(b) RETURN b.name AS name, size(r) AS n";
      expect(await failure(q).then((e) => e.message)).toMatch(/Variable `r` is not defined/);
      const { rows } = await run(
        "MATCH (a {name: 'K1'})-[r:DEPENDS_ON*]->(b) RETURN b.name AS name, size(r) AS hops ORDER BY hops",
      );
      expect(rows).toEqual([
        { name: 'K2', hops: 1 },
        { name: 'K3', hops: 2 },
        { name: 'K1', hops: 3 },
      ]);
      const list = await run("MATCH (a {name: 'K1'})-[r:DEPENDS_ON*2]->(b) RETURN r");
      expect((list.rows[0].r as { type: string; src: string }[]).map((e) => [e.type, e.src])).toEqual([
        ['DEPENDS_ON', N.k1],
        ['DEPENDS_ON', N.k2],
      ]);
    });

    it('walks from whichever end is bound and keeps the relationships in pattern order', async () => {
      const fromLeft = await run("MATCH (x {name: 'K2'})-[r:DEPENDS_ON*2]->(y) RETURN x.name AS x, y.name AS y, r");
      const fromRight = await run("MATCH (x)-[r:DEPENDS_ON*2]->(y {name: 'K1'}) RETURN x.name AS x, y.name AS y, r");
      expect(fromRight.rows).toEqual(fromLeft.rows);
      expect(fromRight.rows.map((row) => [row.x, row.y, (row.r as { src: string }[]).map((e) => e.src)])).toEqual([
        ['K2', 'K1', [N.k2, N.k3]],
      ]);
      const inward = await run("MATCH (y)<-[r:DEPENDS_ON*2]-(x {name: 'K2'}) RETURN y.name AS y, r");
      expect(inward.rows.map((row) => [row.y, (row.r as { src: string }[]).map((e) => e.src)])).toEqual([
        ['K1', [N.k3, N.k2]],
      ]);
    });

    it('applies visibility to the inner nodes of a variable-length path', async () => {
      const q = "MATCH (n {name: 'Review note'})-[*2]->(m) RETURN m.revision AS rev";
      expect(await column(q, 'rev')).toEqual([]);
      expect(await column(q, 'rev', { runId: 'r2' })).toEqual([]);
      expect(await column(q, 'rev', { runId: 'r1' })).toEqual([2]);
    });

    it('shows drafts only to their run and abandoned revisions never', async () => {
      const q = "MATCH (n {item_key: 'BRK'}) RETURN n.revision AS rev, n.revision_status AS s ORDER BY rev";
      expect(await column(q, 'rev')).toEqual([1, 2]);
      expect(await column(q, 'rev', { runId: 'r1' })).toEqual([1, 2, 3]);
      expect(await column(q, 'rev', { runId: 'r0' })).toEqual([1, 2]);
      expect(
        await column("MATCH (n) WHERE n.revision_status = 'abandoned' RETURN n.id AS id", 'id', { runId: 'r0' }),
      ).toEqual([]);
    });

    it('evaluates the WHERE operators', async () => {
      const names = (where: string, opts: CypherOptions = {}) =>
        column(
          `MATCH (n {project_id: 'p1'}) WHERE ${where} RETURN DISTINCT n.name AS name ORDER BY name`,
          'name',
          opts,
        );
      expect(await names("n.name STARTS WITH 'Br'")).toEqual(['Bracket', 'Bracket FEA', 'Bracket limits']);
      expect(await names("n.name ENDS WITH 'kg'")).toEqual(['Lift 5 kg']);
      expect(await names("n.name CONTAINS 'FE'")).toEqual(['Bracket FEA']);
      expect(await names("toLower(n.name) CONTAINS 'fea'")).toEqual(['Bracket FEA']);
      expect(await names("toUpper(n.name) = 'K1'")).toEqual(['K1']);
      expect(await names("n.name IN ['K1', 'K3', 'nope']")).toEqual(['K1', 'K3']);
      expect(await names('n.rank IN $ranks', { params: { ranks: [1, 2] } })).toEqual(['K2', 'K3']);
      expect(await names("n.node_type = 'decision' AND NOT n.rank > 1")).toEqual(['K2']);
      expect(await names("n.node_type = 'decision' AND (n.rank = 1 XOR n.name = 'K2')")).toEqual([]);
      expect(await names("n.node_type = 'decision' AND (n.rank = 1 XOR n.name = 'K3')")).toEqual(['K2', 'K3']);
      expect(await names('n.rank <> 3 OR n.priority = 1')).toEqual(['K2', 'K3', 'Lift 5 kg']);
      expect(await names('n.item_key IS NULL AND exists(n.rank)')).toEqual(['K1', 'K2', 'K3']);
      expect(await names("n.revision IS NOT NULL AND n.node_type <> 'cad_model'")).toEqual([
        'Bracket limits',
        'Lift 5 kg',
      ]);
      expect(await names('coalesce(n.rank, n.priority, 0) >= 2')).toEqual(['K1', 'K3']);
      expect(await names('size(n.name) = 2 AND n:Decision')).toEqual(['K1', 'K2', 'K3']);
      expect(await names("n.rank > 'a'")).toEqual([]);
    });

    it('returns id(), labels() and computed values', async () => {
      const { rows } = await run(
        "MATCH (n {name: 'K2'})-[r]->(m) RETURN id(n) AS id, labels(m) AS labels, id(r) = id(r) AS same, n.rank + 1 AS next, 7 / 2 AS half",
      );
      expect(rows).toEqual([{ id: N.k2, labels: ['decision'], same: true, next: 2, half: 3 }]);
    });

    it('aggregates with implicit grouping by the other items', async () => {
      const { rows } = await run(
        `MATCH (n {project_id: 'p1'})
         RETURN n.node_type AS type, count(*) AS c, count(DISTINCT n.name) AS names, collect(n.revision) AS revs,
                min(n.mass_kg) AS lightest, max(n.rank) AS top, sum(n.rank) AS total, avg(n.mass_kg) AS mean
         ORDER BY c DESC, type`,
      );
      expect(rows[0]).toEqual({
        type: 'decision',
        c: 3,
        names: 3,
        revs: [],
        lightest: null,
        top: 3,
        total: 6,
        mean: null,
      });
      expect(rows[1]).toMatchObject({ type: 'cad_model', c: 2, names: 1, lightest: 1.2, total: 0, mean: 1.35 });
      expect((rows[1].revs as number[]).sort()).toEqual([1, 2]);
      expect(rows.map((r) => r.type)).toEqual([
        'decision',
        'cad_model',
        'constraint_set',
        'document',
        'intent',
        'simulation_result',
      ]);
      const total = await run('MATCH (n:Decision) RETURN count(n) AS c, max(n.name) AS last');
      expect(total.rows).toEqual([{ c: 3, last: 'K3' }]);
    });

    it('orders grouped results by a returned node property', async () => {
      const { rows } = await run(
        'MATCH (n:Decision)-[:DEPENDS_ON]->(m) RETURN n, count(m) AS deps ORDER BY n.rank DESC',
      );
      expect(rows.map((r) => (r.n as { name: string }).name)).toEqual(['K1', 'K3', 'K2']);
    });

    it('keeps rows with OPTIONAL MATCH when nothing matches', async () => {
      const { rows } = await run(
        'MATCH (n:Decision) OPTIONAL MATCH (n)<-[:REFERENCES]-(d) RETURN n.name AS name, d ORDER BY name LIMIT 1',
      );
      expect(rows).toEqual([{ name: 'K1', d: null }]);
    });

    it('orders, skips and limits with numbers and parameters', async () => {
      const q = 'MATCH (n:Decision) RETURN n.name AS name ORDER BY n.rank DESC SKIP $skip LIMIT $limit';
      expect(await column(q, 'name', { params: { skip: 1, limit: 1 } })).toEqual(['K3']);
      expect(await column('MATCH (n:Decision) RETURN n.name AS name ORDER BY name DESC LIMIT 2', 'name')).toEqual([
        'K3',
        'K2',
      ]);
      expect(
        await column(
          "MATCH (n) WHERE n.name IN ['b', 'a', 'B'] OR n.node_type = 'decision' RETURN n.name AS name ORDER BY name SKIP 1",
          'name',
        ),
      ).toEqual(['K2', 'K3']);
    });

    it('binds parameters of every JSON type and names a missing one', async () => {
      const q = 'MATCH (n) WHERE n.material = $m AND n.machined = $b AND n.mass_kg > $w RETURN n.revision AS r';
      expect(await column(q, 'r', { params: { m: 'steel', b: true, w: 1 } })).toEqual([1]);
      const e = await failure(q, { params: { m: 'steel' } });
      expect(e.kind).toBe('parameter');
      expect(e.message).toMatch(/^Parameter \$b was not supplied/);
    });

    it('refuses a project-scoped query without $project_id and binds it when present', async () => {
      const e = await failure('MATCH (n:CadModel) RETURN n.name AS name', { projectScope: 'p2' });
      expect(e.message).toContain('bind it, for example MATCH (n {project_id: $project_id})');
      const names = await column('MATCH (n:CadModel {project_id: $project_id}) RETURN n.name AS name', 'name', {
        projectScope: 'p2',
      });
      expect(names).toEqual(['Gear']);
      expect(
        (
          await failure('MATCH (n {project_id: $project_id}) RETURN n', {
            projectScope: 'p2',
            params: { project_id: 'p1' },
          })
        ).kind,
      ).toBe('project_scope');
    });

    it('cuts the rows at maxRows and says so', async () => {
      const all = await run("MATCH (n {project_id: 'p1'}) RETURN n.name AS name", { maxRows: 4 });
      expect(all.rows).toHaveLength(4);
      expect(all.truncated).toBe(true);
      const limited = await run("MATCH (n {project_id: 'p1'}) RETURN n.name AS name LIMIT 4", { maxRows: 4 });
      expect(limited.truncated).toBe(false);
      expect((await run("MATCH (n {project_id: 'p1'}) RETURN n.name AS name")).truncated).toBe(false);
    });

    it('reports a type error PostgreSQL finds as a CypherError', async () => {
      const e = await failure('MATCH (n:Decision) RETURN sum(n.name) AS s');
      expect(e.kind).toBe('database');
    });
  });
}

describeEachDb(describeCypher);
