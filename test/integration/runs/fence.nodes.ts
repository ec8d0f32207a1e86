import pg from 'pg';
import type { ServiceSchema } from 'moleculer';
import { expect } from 'vitest';
import { createGatesService } from '../../../actors/gates/gates.service.ts';
import { createRunsService } from '../../../actors/runs/runs.service.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { createTwinAdapter } from '../../../actors/adapters/twin/twin.adapter.ts';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { RunsActions as R, type RunView } from '../../../contracts/actions/runs.actions.ts';
import { startActors } from '../../support/actors.ts';
import { recordingExecutor } from '../../support/flow-node.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';

/** A lease no test outlives: leases move only when a test hands a run over, never because time passed. */
const LEASE_MS = 600_000;

const who = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};

/**
 * Points where a node's owner stops, as a paused process would (the injected pause hooks of the runs and twin actors:
 * factory options of tests only). `arm` stops the next pass through `step`: `reached` resolves with the run when the
 * owner got there, and it waits there until `release`.
 */
export class PausePoints {
  private readonly armed = new Map<string, { hit(runId: string): void; gate: Promise<void> }>();

  arm(step: string): { reached: Promise<string>; release(): void } {
    let hit!: (runId: string) => void;
    let release!: () => void;
    const reached = new Promise<string>((r) => (hit = r));
    const gate = new Promise<void>((r) => (release = r));
    this.armed.set(step, { hit, gate });
    return { reached, release };
  }

  readonly hook = async (step: string, runId: string): Promise<void> => {
    const a = this.armed.get(step);
    if (!a) return;
    this.armed.delete(step);
    a.hit(runId);
    await a.gate;
  };
}

/** What a node's twin answered to a `closeDrafts` (observed around the real action, nothing replaced). */
export interface CloseSeen {
  params: { run_id: string; run_epoch?: number };
  closed?: number;
  error?: { type?: string; message: string };
}

/** One node: runs (the recording executor), gates, twin, tools and the twin adapter, on the shared database. */
export interface FenceNode {
  id: string;
  handle: BrokerHandle;
  pauses: PausePoints;
  closes: CloseSeen[];
  start(project: string): Promise<string>;
  get(runId: string): Promise<RunView>;
  decide(runId: string, decision: 'approve' | 'reject' | 'retry', idem: string, reason?: string): Promise<RunView>;
  /** Polls this node's view until the open gate is `phase` (attempt `attempt`, when given). */
  gateOpen(runId: string, phase: string, attempt?: number): Promise<void>;
}

/** Wraps the twin's `closeDrafts` handler to record what it answered. */
function observeCloses(svc: ServiceSchema, seen: CloseSeen[]): ServiceSchema {
  const act = (svc.actions as Record<string, { handler(ctx: { params: CloseSeen['params'] }): Promise<unknown> }>)
    .closeDrafts;
  const handler = act.handler;
  act.handler = async function (this: unknown, ctx) {
    const entry: CloseSeen = { params: ctx.params };
    try {
      const out = (await handler.call(this, ctx)) as { closed: number };
      entry.closed = out.closed;
      return out;
    } catch (err) {
      entry.error = { type: (err as { type?: string }).type, message: (err as Error).message };
      throw err;
    } finally {
      seen.push(entry);
    }
  };
  return svc;
}

async function startFenceNode(id: string, env: Record<string, string>): Promise<FenceNode> {
  const pauses = new PausePoints();
  const closes: CloseSeen[] = [];
  const handle = await startActors(
    [
      (infra) => createRunsService(infra, { executor: recordingExecutor(), leaseMs: LEASE_MS, pause: pauses.hook }),
      createGatesService,
      (infra) => observeCloses(createTwinService(infra, { pause: pauses.hook }), closes),
      createToolsService,
      createTwinAdapter,
    ],
    { ...env, SERVICE_NODE_ID: id },
  );
  const get = (runId: string) => call(handle.broker, R.get, { run_id: runId });
  return {
    id,
    handle,
    pauses,
    closes,
    async start(project) {
      return (await call(handle.broker, R.start, { design_flow: 'mech_v1', project_id: project, goal: 'a bracket' }))
        .id;
    },
    get,
    decide: (runId, decision, idem, reason = '') =>
      call(handle.broker, R.decide, { run_id: runId, decision, reason, identity: who, idem }),
    async gateOpen(runId, phase, attempt) {
      await expect
        .poll(
          async () => {
            const g = (await get(runId)).gate;
            return g && g.ready && g.phase === phase && (attempt === undefined || g.attempt === attempt);
          },
          { timeout: 30_000, interval: 50 },
        )
        .toBe(true);
    },
  };
}

/**
 * Two nodes on one PostgreSQL database, each with every actor a run needs and no bus between them: what one node does
 * reaches the other only through the database, as with a node cut off or paused. `handOver` gives a run's lease to B
 * (what the lease expiring while A stood still amounts to, without waiting for time); B then claims it, with a new
 * epoch, at its next command.
 */
export async function startFenceNodes(env: { a?: Record<string, string>; b?: Record<string, string> } = {}) {
  const db: TestDatabase = await createTestDatabase('fence');
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  const base = { SERVICE_DATABASE_URL: db.url };
  const a = await startFenceNode('fence-a', { ...base, ...env.a });
  const b = await startFenceNode('fence-b', { ...base, ...env.b });
  return {
    a,
    b,
    async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
      return (await sql.query(text, params)).rows as T[];
    },
    async handOver(runId: string, to: FenceNode): Promise<void> {
      await sql.query(`UPDATE runs SET owner = $2, lease_until = now() + interval '1 hour' WHERE id = $1`, [
        runId,
        to.id,
      ]);
    },
    async epoch(runId: string): Promise<number> {
      return Number((await sql.query('SELECT epoch FROM runs WHERE id = $1', [runId])).rows[0].epoch);
    },
    async stop() {
      await Promise.all([a.handle.stop(), b.handle.stop()]);
      await sql.end();
      await db.drop();
    },
  };
}
export type FenceNodes = Awaited<ReturnType<typeof startFenceNodes>>;
