import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CypherError, runCypher, type CypherOptions } from '../../../actors/twin/cypher/index.ts';
import { migrate, type Db } from '../../../brokers/db/index.ts';
import { describeEachDb, type MakeDb } from '../../support/pg.ts';

/** Node ids of the test graph, readable in failures. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const N = {
  intent: id(1),
  constraints: id(2),
  bracket1: id(3),
  bracket2: id(4),
  sim: id(5),
  draft: id(6),
  abandoned: id(7),
  note: id(8),
  k1: id(11),
  k2: id(12),
  k3: id(13),
  gear: id(21),
  linkA: id(31),
  linkB: id(32),
};

/**
 * Project p1: an intent, a constraint set derived from it, two committed revisions of item BRK (rev 2 REVISION_OF
 * and SUPERSEDES rev 1), a simulation result DERIVES_FROM rev 2, a draft rev 3 of run r1, an abandoned rev of run r0,
 * a note that references the draft, and three decisions depending on each other in a cycle.
 * Project p2: one cad_model. Project pm: two nodes the mutation tests change.
 */
async function seed(db: Db): Promise<void> {
  const nodes: [string, string, string, string, object, string | null, number | null, string | null, string | null][] =
    [
      [N.intent, 'p1', 'intent', 'Lift 5 kg', { priority: 1 }, 'INT', 1, 'committed', null],
      [N.constraints, 'p1', 'constraint_set', 'Bracket limits', { max_mass_kg: 2 }, 'CS', 1, 'approved', null],
      [
        N.bracket1,
        'p1',
        'cad_model',
        'Bracket',
        { mass_kg: 1.5, material: 'steel', machined: true },
        'BRK',
        1,
        'committed',
        null,
      ],
      [
        N.bracket2,
        'p1',
        'cad_model',
        'Bracket',
        { mass_kg: 1.2, material: 'aluminium', machined: false, code: '1.2' },
        'BRK',
        2,
        'committed',
        null,
      ],
      [N.sim, 'p1', 'simulation_result', 'Bracket FEA', { max_stress_mpa: 120, passed: true }, null, null, null, null],
      [N.draft, 'p1', 'cad_model', 'Bracket', { mass_kg: 1.1, material: 'titanium' }, 'BRK', 3, 'draft', 'r1'],
      [N.abandoned, 'p1', 'cad_model', 'Bracket', { mass_kg: 0.9 }, 'BRK', 3, 'abandoned', 'r0'],
      [N.note, 'p1', 'document', 'Review note', {}, null, null, null, null],
      [N.k1, 'p1', 'decision', 'K1', { rank: 3 }, null, null, null, null],
      [N.k2, 'p1', 'decision', 'K2', { rank: 1 }, null, null, null, null],
      [N.k3, 'p1', 'decision', 'K3', { rank: 2 }, null, null, null, null],
      [N.gear, 'p2', 'cad_model', 'Gear', { mass_kg: 0.4 }, 'GEAR', 1, 'committed', null],
      [N.linkA, 'pm', 'cad_model', 'Link A', { colour: 'red' }, null, null, null, null],
      [N.linkB, 'pm', 'cad_model', 'Link B', {}, null, null, null, null],
    ];
  for (const [nid, project, type, name, props, key, rev, status, run] of nodes) {
    await db.query(
      `INSERT INTO twin_nodes (id, project_id, node_type, name, properties, item_key, revision, revision_status, run_id)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)`,
      [nid, project, type, name, JSON.stringify(props), key, rev, status, run],
    );
  }
  const edges: [string, string, string, object][] = [
    [N.constraints, N.intent, 'DERIVES_FROM', {}],
    [N.bracket2, N.bracket1, 'REVISION_OF', { change_reason: 'lighter' }],
    [N.bracket2, N.bracket1, 'SUPERSEDES', {}],
    [N.bracket2, N.constraints, 'SATISFIES', { margin: 0.4 }],
    [N.sim, N.bracket2, 'DERIVES_FROM', { revision: 2 }],
    [N.draft, N.bracket2, 'REVISION_OF', { change_reason: 'lighter still' }],
    [N.abandoned, N.bracket2, 'REVISION_OF', {}],
    [N.note, N.draft, 'REFERENCES', {}],
    [N.k1, N.k2, 'DEPENDS_ON', {}],
    [N.k2, N.k3, 'DEPENDS_ON', {}],
    [N.k3, N.k1, 'DEPENDS_ON', {}],
    [N.linkA, N.linkB, 'CONNECTS', { note: 'old' }],
  ];
  for (const [src, dst, type, props] of edges) {
    await db.query('INSERT INTO twin_edges (src, dst, rel_type, properties) VALUES ($1, $2, $3, $4::jsonb)', [
      src,
      dst,
      type,
      JSON.stringify(props),
    ]);
  }
}

/** One suite over the real schema, run on PGlite and on PostgreSQL: the generated SQL must work on both. */
function describeCypher(backend: string, make: MakeDb): void {
  describe(`twin.query_cypher on ${backend}`, () => {
    let db: Db;
    let dispose: () => Promise<void>;
    const run = (text: string, opts: CypherOptions = {}) => runCypher(db, text, opts);
    const column = async (text: string, name: string, opts: CypherOptions = {}) =>
      (await run(text, opts)).rows.map((r) => r[name]);
    const failure = async (text: string, opts: CypherOptions = {}): Promise<CypherError> => {
      const err: unknown = await run(text, opts).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CypherError);
      return err as CypherError;
    };

    beforeAll(async () => {
      ({ db, dispose } = await make());
      await migrate(db);
      await seed(db);
    });
    afterAll(async () => {
      await dispose();
    });

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

    it('refuses writes without --allow-twin-mutations and changes nothing', async () => {
      const e = await failure("MATCH (n {name: 'Link A'}) SET n.colour = 'blue'");
      expect(e.message).toMatch(
        /^twin\.query_cypher is read-only; the server was not started with --allow-twin-mutations/,
      );
      const { rows } = await db.query<{ colour: string }>(
        "SELECT properties->>'colour' AS colour FROM twin_nodes WHERE id = $1",
        [N.linkA],
      );
      expect(rows[0].colour).toBe('red');
    });

    it('sets properties and names when mutations are allowed', async () => {
      const res = await run(
        "MATCH (n {project_id: 'pm', name: 'Link A'}) SET n.colour = 'blue', n.mass_kg = 2, n.name = 'Link A2'",
        { allowMutations: true },
      );
      expect(res.rows).toEqual([{ properties_set: 3, relationships_created: 0, relationships_deleted: 0 }]);
      const { rows } = await db.query<{ name: string; properties: unknown }>(
        'SELECT name, properties FROM twin_nodes WHERE id = $1',
        [N.linkA],
      );
      expect(rows[0]).toEqual({ name: 'Link A2', properties: { colour: 'blue', mass_kg: 2 } });
      await run('MATCH (n {id: $id}) SET n.colour = null', { allowMutations: true, params: { id: N.linkA } });
      expect(await column('MATCH (n {id: $id}) RETURN n.properties AS p', 'p', { params: { id: N.linkA } })).toEqual([
        { mass_kg: 2 },
      ]);
    });

    it('creates and deletes relationships when mutations are allowed', async () => {
      const opts = { allowMutations: true, params: { a: N.linkA, b: N.linkB } };
      const created = await run('MATCH (a {id: $a}), (b {id: $b}) CREATE (b)-[:DRIVES {ratio: 2}]->(a)', opts);
      expect(created.rows[0]).toMatchObject({ relationships_created: 1 });
      const back = await run('MATCH (b {id: $b})-[r:DRIVES]->(a {id: $a}) RETURN r.ratio AS ratio', opts);
      expect(back.rows).toEqual([{ ratio: 2 }]);
      const deleted = await run("MATCH (a {project_id: 'pm'})-[r]-() DELETE r", opts);
      expect(deleted.rows[0]).toMatchObject({ relationships_deleted: 2 });
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM twin_edges WHERE src = ANY($1::uuid[])',
        [[N.linkA, N.linkB]],
      );
      expect(rows[0].n).toBe(0);
    });

    it('rolls back every write of a query when one fails', async () => {
      const e = await failure("MATCH (n {project_id: 'pm'}) SET n.flag = true, n.name = 3", { allowMutations: true });
      expect(e.message).toMatch(/a node name must be a string/);
      expect(await column("MATCH (n {project_id: 'pm'}) WHERE exists(n.flag) RETURN n.name AS name", 'name')).toEqual(
        [],
      );
    });
  });
}

describeEachDb(describeCypher);
