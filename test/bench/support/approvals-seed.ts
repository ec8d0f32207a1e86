// Seeds bench:approvals through the source tables (as bench:twin does), in the exact shapes the owning actors write:
// runs parked at a gate (cloned from a real run the runs actor parked, with their event logs, so the runs actor can
// load and decide them), tool-approval ledger records, and twin nodes (design changes, design loops with their
// winning iteration, sketches, technical drawings).
import type pg from 'pg';

/** How many pending items of each kind (10,000 in all by default) over how many projects. */
export interface SeedPlan {
  gates: number;
  ledger: number;
  changes: number;
  loops: number;
  sketches: number;
  drawings: number;
  projects: number;
  /** One item in this many has no project (the list's unscoped_count). */
  unscopedEvery: number;
}

/** The default plan: 10,000 pending items across kinds and 20 projects. */
export const PLAN: SeedPlan = {
  gates: 2000,
  ledger: 2000,
  changes: 2000,
  loops: 1000,
  sketches: 1500,
  drawings: 1500,
  projects: 20,
  unscopedEvery: 50,
};

/** SQL for the project of the i-th item (`$projects` projects, one in `$every` unscoped). */
const projectOf = (i: string) =>
  `CASE WHEN ${i} % $2 = 0 THEN NULL ELSE 'bench-p' || lpad((${i} % $1)::text, 2, '0') END`;

/** Clones the template run (parked at its first gate) into `n` runs with their own ids, projects and logs. */
async function cloneRuns(c: pg.Client, templateId: string, n: number, plan: SeedPlan): Promise<void> {
  await c.query(
    `INSERT INTO runs (id, project_id, design_flow, version_id, status, seq, epoch, owner, lease_until, state, request, created_at, updated_at)
     SELECT 'run_bench_' || i, ${projectOf('i')}, r.design_flow, r.version_id, r.status, r.seq, 0, NULL, NULL,
            jsonb_set(replace(r.state::text, $3, 'run_bench_' || i)::jsonb, '{project_id}', coalesce(to_jsonb(${projectOf('i')}), 'null'::jsonb)), r.request,
            r.created_at + i * interval '1 millisecond', r.updated_at + i * interval '1 millisecond'
     FROM runs r, generate_series(1, $4) AS i WHERE r.id = $3`,
    [plan.projects, plan.unscopedEvery, templateId, n],
  );
  await c.query(
    `INSERT INTO run_events (run_id, seq, type, payload, epoch, node, idem, created_at)
     SELECT 'run_bench_' || i, e.seq, e.type,
            CASE WHEN e.type = 'RunCreated' THEN jsonb_set(replace(e.payload::text, $3, 'run_bench_' || i)::jsonb, '{project_id}', coalesce(to_jsonb(${projectOf('i')}), 'null'::jsonb))
                 ELSE replace(e.payload::text, $3, 'run_bench_' || i)::jsonb END,
            0, e.node, e.idem, e.created_at
     FROM run_events e, generate_series(1, $4) AS i WHERE e.run_id = $3`,
    [plan.projects, plan.unscopedEvery, templateId, n],
  );
}

/** Seeds the plan; answers the approval ids of each kind (newest last). */
export async function seedApprovals(
  c: pg.Client,
  templateRunId: string,
  plan: SeedPlan = PLAN,
): Promise<Record<'gate' | 'tool' | 'change' | 'sketch', string[]>> {
  await cloneRuns(c, templateRunId, plan.gates, plan);
  // Requests of a tool without an effect here: the bench measures the queue's decision, not a promotion's evaluation.
  const kinds = ['human_authority', 'tool_call', 'flow_version', 'human_authority'];
  await c.query(
    `INSERT INTO tool_approvals (id, kind, status, tool_id, title, arguments, detail, project_id, requested_by, route, source, created_at, updated_at)
     SELECT gen_random_uuid()::text, ($3::text[])[1 + i % 4], 'awaiting_approval', 'review.sign_off', 'bench request ' || i, '{"level": "L2"}',
            '{"authority": "sign_off"}', ${projectOf('i')}, 'bench', 'dashboard', 'service', now() + i * interval '1 millisecond', now()
     FROM generate_series(1, $4) AS i`,
    [plan.projects, plan.unscopedEvery, kinds, plan.ledger],
  );
  const nodes = async (type: string, n: number, props: string) =>
    c.query(
      `INSERT INTO twin_nodes (id, project_id, node_type, name, properties, created_at, updated_at)
       SELECT gen_random_uuid(), ${projectOf('i')}, $3, $3 || ' ' || i, ${props}, now() + i * interval '1 millisecond', now() FROM generate_series(1, $4) AS i`,
      [plan.projects, plan.unscopedEvery, type, n],
    );
  await nodes(
    'design_change',
    plan.changes,
    `jsonb_build_object('status', 'pending', 'target', 'CAD-BENCH', 'rationale', 'bench change ' || i)`,
  );
  await nodes('sketch', plan.sketches, `'{"description": "bench sketch"}'::jsonb`);
  await nodes('technical_drawing', plan.drawings, `'{"description": "bench drawing"}'::jsonb`);
  await nodes('design_iteration', plan.loops, `jsonb_build_object('loop', i)`);
  await c.query(
    `INSERT INTO twin_nodes (id, project_id, node_type, name, properties, created_at, updated_at)
     SELECT gen_random_uuid(), w.project_id, 'design_loop', 'design loop ' || (w.properties->>'loop'),
            jsonb_build_object('status', 'pending', 'winning_iteration', w.id::text, 'iterations', jsonb_build_array(w.id::text)), w.created_at, now()
     FROM twin_nodes w WHERE w.node_type = 'design_iteration'`,
  );
  await c.query('ANALYZE');
  const ids = async (sql: string) => (await c.query<{ id: string }>(sql)).rows.map((r) => r.id);
  return {
    gate: await ids(`SELECT 'gate:' || id AS id FROM runs WHERE id LIKE 'run_bench_%' ORDER BY created_at`),
    tool: await ids(
      `SELECT 'tool:' || id AS id FROM tool_approvals WHERE kind = 'human_authority' ORDER BY created_at`,
    ),
    change: await ids(
      `SELECT 'change:' || id AS id FROM twin_nodes WHERE node_type = 'design_change' ORDER BY created_at`,
    ),
    sketch: await ids(`SELECT 'sketch:' || id AS id FROM twin_nodes WHERE node_type = 'sketch' ORDER BY created_at`),
  };
}
