import crypto from 'node:crypto';
import type { ServiceSchema } from 'moleculer';
import { action, call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { HarnessCallsActions } from '../../contracts/actions/harness-calls.actions.ts';
import { MemoryActions as A } from '../../contracts/actions/memory.actions.ts';
import { SessionsActions } from '../../contracts/actions/sessions.actions.ts';
import type { ConsolidateResult, ConsolidatedInsight } from '../../contracts/memory.ts';
import { healthAction } from '../adapters/kit/health.ts';
import { buildPrompt, gatherSessions, parseAnswer, sourcesOf } from './consolidate.ts';
import { createMemoryStore, type MemoryStore } from './memory.store.ts';

/** A run that found nothing to consolidate: no model was asked. */
const nothing = (mode: ConsolidateResult['mode']): ConsolidateResult => ({
  mode,
  fetchedCount: 0,
  groupCount: 0,
  synthesizedCount: 0,
  acceptedCount: 0,
  rejectedCount: 0,
  revalidatedCount: 0,
  newlyFailedCount: 0,
  rejectedReasons: [],
  insights: [],
});

/**
 * The `memory` actor (README "Memory"): views over the captured sessions, read through the sessions actor's query
 * actions (experiences by full-text similarity; insight and lesson events, served verbatim), and the consolidated
 * insights it owns (table memory_insights), written by `consolidate` from the `summarisation` role's answer.
 */
export function createMemoryService(infra: Infra): ServiceSchema {
  let store: MemoryStore;
  return {
    name: 'memory',

    actions: {
      similar: action(A.similar, async (p, ctx) => ({
        query: p.query,
        experiences: (await call(ctx, SessionsActions.searchSimilar, p)).experiences,
        consolidated: await store.similar(p.query, p.project_id ?? null, p.limit),
      })),

      insights: action(A.insights, async (p, ctx) => ({
        insights: (await call(ctx, SessionsActions.insightEvents, p)).events.map((e) => ({
          ...e,
          confidence: 'verbatim' as const,
        })),
        consolidated: await store.list(p.project_id ?? null, p.theme ?? null, p.limit),
      })),

      /**
       * One on_demand run: the recent sessions (gatherSessions), one `harness.call` of role summarisation, the answer
       * validated (parseAnswer), the insights at or above minImportance written in one transaction. Only on_demand is
       * served: the other SPEC modes (background, proactive, janitor: revalidating stored insights) are scheduled or
       * revalidating runs this service does not have, so they are refused rather than answered as if they ran.
       */
      consolidate: action(A.consolidate, async (p, ctx) => {
        if (p.mode !== 'on_demand') {
          const message = `mode ${p.mode} is not served: this service runs on_demand consolidation only`;
          throw ActorError.validation([{ path: 'mode', message }], message);
        }
        const now = infra.now();
        const gathered = await gatherSessions(ctx, p, now);
        if (gathered.sessions.length === 0) return nothing(p.mode);

        const project_id = p.projectId ?? null;
        const r = await call(ctx, HarnessCallsActions.call, {
          role: 'summarisation',
          project_id,
          messages: buildPrompt(gathered, p.theme),
        });
        if (r.outcome === 'failed') {
          // The catalogue has no 502: every model failure is SERVICE_UNAVAILABLE (the summarisation route cannot
          // serve this now), told apart by failure_class; environment's message names what to configure.
          throw new ActorError('SERVICE_UNAVAILABLE', r.failure.message, {
            failure_class: r.failure.class,
            role: 'summarisation',
            record_id: r.record_id,
          });
        }
        const answered = parseAnswer(r.completion.text, gathered.labels, r.record_id);
        const min = p.minImportance ?? 0;
        const rejectedReasons: string[] = [];
        const insights: ConsolidatedInsight[] = [];
        answered.forEach((m, i) => {
          if (m.importance < min) {
            rejectedReasons.push(`insight ${i + 1} has importance ${m.importance}, below minImportance ${min}`);
            return;
          }
          insights.push({
            id: crypto.randomUUID(),
            project_id,
            theme: m.theme,
            text: m.text,
            confidence: 'llm_inferred',
            certainty: m.confidence,
            importance: m.importance,
            sources: sourcesOf(m, gathered.labels),
            model: r.completion.model,
            record_id: r.record_id,
            created_at: now.toISOString(),
          });
        });
        await store.insert(insights);
        infra.log.info(
          { project_id, sessions: gathered.sessions.length, accepted: insights.length, record_id: r.record_id },
          'memory consolidated',
        );
        return {
          mode: p.mode,
          fetchedCount: gathered.sessions.length,
          groupCount: new Set(answered.map((m) => m.theme)).size,
          synthesizedCount: answered.length,
          acceptedCount: insights.length,
          rejectedCount: rejectedReasons.length,
          revalidatedCount: 0,
          newlyFailedCount: 0,
          rejectedReasons,
          insights,
        };
      }),

      /** Healthy while its table answers and the sessions actor it reads through answers healthy. */
      health: healthAction(
        A.health,
        'memory',
        async (ctx) => {
          const table = await store.ping().then(
            () => undefined,
            (err: unknown) => `the memory_insights table does not answer: ${String(err)}`,
          );
          if (table) return { status: 'unhealthy', message: table };
          const s = await call(ctx, SessionsActions.health, {});
          return s.status === 'healthy'
            ? undefined
            : { status: s.status, message: `the sessions actor is ${s.status}: ${s.message ?? ''}`.trim() };
        },
        (err) => `the sessions actor does not answer: ${String(err)}`,
      ),
    },

    async started() {
      store = createMemoryStore(await infra.db());
    },
  };
}
