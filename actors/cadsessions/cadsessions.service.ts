import type { ActionSchema, ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import type { Infra } from '../../brokers/infra.ts';
import { CadStashActions } from '../../contracts/actions/cad.actions.ts';
import { CadSessionsActions as A } from '../../contracts/actions/cadsessions.actions.ts';
import type { KernelPool } from '../../workers/cad/host/pool.ts';
import { acquireKernelPool, releaseKernelPool } from '../../workers/cad/host/shared.ts';
import { Workspace, workspaceRoot } from '../adapters/kit/workspace.ts';
import { createCadSessionStore, type CadSessionStore } from './cadsessions.store.ts';
import { createSessionRunner, type SessionRunner } from './session-runner.ts';

/** Shard routing on the session id (ARCHITECTURE "An actor per entity"; placement only, the history is the authority). */
const SHARD: Pick<ActionSchema, 'strategy' | 'strategyOptions'> = {
  strategy: 'Shard',
  strategyOptions: { shardKey: 'session_id' },
};

/**
 * The `cadsessions` actor: one CAD session = one entity, keyed and shard-routed by its id, pinned to one kernel thread
 * of the node that serves it. Owns cad_sessions, cad_session_features (the feature history, the source of truth),
 * cad_session_files (imported files) and cad_session_exports (the export stash `twin.commit_geometry` reads).
 */
export function createCadSessionsService(infra: Infra): ServiceSchema {
  let runner: SessionRunner;
  let store: CadSessionStore;
  let pool: KernelPool | undefined;
  let nodeId = 'local';
  return {
    name: 'cadsessions',

    actions: {
      open: action(
        A.open,
        async (p) => {
          const s = await store.open(
            p.session_id,
            p.name ?? `session ${p.session_id.slice(0, 8)}`,
            p.project_id ?? null,
            infra.now(),
          );
          infra.log.info({ session_id: s.session_id, project_id: s.project_id }, 'cad session opened');
          return s;
        },
        SHARD,
      ),
      close: action(A.close, (p) => runner.close(p.session_id), SHARD),
      describe: action(
        A.describe,
        async (p) => {
          const s = await runner.load(p.session_id, false);
          const [features, model] = await Promise.all([
            store.featureList(p.session_id),
            runner.query(p.session_id, 'describe_model', {}),
          ]);
          return { ...s, features, model: model.result };
        },
        SHARD,
      ),
      command: action(A.command, (p) => runner.command(p.session_id, p.op, p.args, p.file_path), SHARD),
      query: action(A.query, (p) => runner.query(p.session_id, p.name, p.args), SHARD),
      export: action(A.export, (p) => runner.export(p.session_id, p.args), SHARD),
      cancel: action(A.cancel, (p) => ({ cancelled: runner.cancel(p.session_id, p.reason ?? 'cancelled') }), SHARD),
      stashGet: action(CadStashActions.get, async (p) => {
        const step = await store.stashed(p.session_id, p.obj_id);
        return step ? { found: true as const, step_base64: step.toString('base64') } : { found: false as const };
      }),
    },

    async started() {
      nodeId = this.broker.nodeID;
      const db = await infra.db();
      const workspace = new Workspace(workspaceRoot(infra.config));
      await workspace.ensure();
      store = createCadSessionStore(db);
      runner = createSessionRunner({
        store,
        workspace,
        pool: () => (pool ??= acquireKernelPool(infra.config, infra.log).pool),
        nodeId: () => nodeId,
        now: () => infra.now(),
        log: infra.log,
      });
      pool ??= acquireKernelPool(infra.config, infra.log).pool;
    },

    async stopped() {
      if (pool) await releaseKernelPool(pool);
      pool = undefined;
    },
  };
}
