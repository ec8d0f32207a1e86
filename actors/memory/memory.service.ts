import type { ServiceSchema } from 'moleculer';
import { action, call } from '../../brokers/actions.ts';
import { MemoryActions as A } from '../../contracts/actions/memory.actions.ts';
import { SessionsActions } from '../../contracts/actions/sessions.actions.ts';
import { healthAction } from '../adapters/kit/health.ts';

/**
 * The `memory` actor: read-only views over the captured sessions (README "Memory"). It owns no table: experiences
 * (sessions ranked by full-text similarity) and insights (events of kind insight or lesson, served verbatim) come from
 * the sessions actor's query actions.
 */
export function createMemoryService(): ServiceSchema {
  return {
    name: 'memory',

    actions: {
      similar: action(A.similar, async (p, ctx) => ({
        query: p.query,
        experiences: (await call(ctx, SessionsActions.searchSimilar, p)).experiences,
      })),

      insights: action(A.insights, async (p, ctx) => ({
        insights: (await call(ctx, SessionsActions.insightEvents, p)).events.map((e) => ({
          ...e,
          confidence: 'verbatim' as const,
        })),
      })),

      /** Healthy while the sessions actor it reads through answers healthy. */
      health: healthAction(
        A.health,
        'memory',
        async (ctx) => {
          const s = await call(ctx, SessionsActions.health, {});
          return s.status === 'healthy'
            ? undefined
            : { status: s.status, message: `the sessions actor is ${s.status}: ${s.message ?? ''}`.trim() };
        },
        (err) => `the sessions actor does not answer: ${String(err)}`,
      ),
    },
  };
}
