import { describe, expect, it } from 'vitest';
import { N, useCypherGraph } from '../../support/cypher-graph.ts';
import { describeEachDb, type MakeDb } from '../../support/pg.ts';

/** Writes (SET, CREATE, DELETE) over the real schema, on PGlite and on PostgreSQL, allowed only with mutations on. */
function describeCypher(backend: string, make: MakeDb): void {
  describe(`twin.query_cypher writes on ${backend}`, () => {
    const { run, column, failure, db: graphDb } = useCypherGraph(make);

    it('refuses writes without --allow-twin-mutations and changes nothing', async () => {
      const e = await failure("MATCH (n {name: 'Link A'}) SET n.colour = 'blue'");
      expect(e.message).toMatch(
        /^twin\.query_cypher is read-only; the server was not started with --allow-twin-mutations/,
      );
      const { rows } = await graphDb().query<{ colour: string }>(
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
      const { rows } = await graphDb().query<{ name: string; properties: unknown }>(
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
      const { rows } = await graphDb().query<{ n: number }>(
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
