import type { ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import type { Infra } from '../../brokers/infra.ts';
import { MemoryActions as A } from '../../contracts/actions/memory.actions.ts';
import type { ComponentHealth } from '../../contracts/health.ts';
import { createMemoryStore, type MemoryStore } from './memory.store.ts';

/**
 * The `memory` actor: read-only views over the captured sessions (README "Memory"). Experiences are sessions ranked
 * by full-text similarity; insights are the events of kind insight or lesson, served verbatim.
 */
export function createMemoryService(infra: Infra): ServiceSchema {
  let store: MemoryStore;
  return {
    name: 'memory',

    actions: {
      similar: action(A.similar, async ({ query, project_id, limit }) => ({
        query,
        experiences: await store.similar(query, project_id ?? null, limit),
      })),

      insights: action(A.insights, async ({ project_id, theme, limit }) => ({
        insights: await store.insights(project_id ?? null, theme ?? null, limit),
      })),

      health: action(A.health, async (): Promise<ComponentHealth> => {
        const started = performance.now();
        try {
          await store.ping();
          return { name: 'memory', status: 'healthy', latency_ms: performance.now() - started, message: null };
        } catch (err) {
          return { name: 'memory', status: 'unhealthy', latency_ms: performance.now() - started, message: String(err) };
        }
      }),
    },

    async started() {
      store = createMemoryStore(await infra.db());
    },
  };
}
