import crypto from 'node:crypto';
import type { Cachers, Context, ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { ProjectsActions as A } from '../../contracts/actions/projects.actions.ts';
import { healthAction } from '../adapters/kit/health.ts';
import { createProjectStore, type ProjectStore } from './projects.store.ts';

const cacheKey = (id: string) => `${A.get.action}:${id}`;

/**
 * The `projects` actor: owns the projects table. `get` is cached (Moleculer cacher: memory embedded, Redis in a
 * cluster) and every write evicts its entry before answering.
 */
export function createProjectsService(infra: Infra): ServiceSchema {
  let store: ProjectStore;
  let cacher: Cachers.Base<object> | undefined;
  return {
    name: 'projects',

    actions: {
      list: action(A.list, (p) => store.list(p.limit, p.offset)),

      get: action(
        A.get,
        async ({ id }) => {
          const project = await store.get(id);
          if (!project) throw ActorError.notFound('project', id);
          return project;
        },
        { cache: { keygen: (_a: unknown, _o: unknown, ctx: Context) => cacheKey((ctx.params as { id: string }).id) } },
      ),

      create: action(A.create, (p) => store.create(crypto.randomUUID(), p, infra.now())),

      update: action(A.update, async ({ id, patch }) => {
        const project = await store.update(id, patch, infra.now());
        if (!project) throw ActorError.notFound('project', id);
        await evict(id);
        return project;
      }),

      remove: action(A.remove, async ({ id }) => {
        const deleted = await store.remove(id);
        if (!deleted) throw ActorError.notFound('project', id);
        await evict(id);
        return { id, deleted: true as const };
      }),

      health: healthAction(A.health, 'projects', async () => {
        await store.ping();
      }),
    },

    async started() {
      store = createProjectStore(await infra.db());
      cacher = this.broker.cacher;
    },
  };

  async function evict(id: string): Promise<void> {
    if (!cacher) return;
    await cacher.del(cacheKey(id));
  }
}
