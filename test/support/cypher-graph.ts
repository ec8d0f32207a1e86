import { afterAll, beforeAll, expect } from 'vitest';
import { CypherError, runCypher, type CypherOptions } from '../../actors/twin/cypher/index.ts';
import { migrate, type Db } from '../../brokers/db/index.ts';
import type { MakeDb } from './pg.ts';

/** Node ids of the test graph, readable in failures. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const N = {
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

/**
 * A migrated database seeded with the graph above for the file's `describe` (made by `make`, dropped after), and the
 * helpers the Cypher tests query it with: the result, one column of its rows, or the CypherError it must fail with.
 */
export function useCypherGraph(make: MakeDb) {
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
  return { run, column, failure, db: () => db };
}
