import crypto from 'node:crypto';
import type { ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { SessionsActions as A } from '../../contracts/actions/sessions.actions.ts';
import { healthAction } from '../adapters/kit/health.ts';
import type { SessionRefusal } from './sessions.machine.ts';
import { createSessionSearch, type SessionSearch } from './sessions.search.ts';
import { createSessionStore, type SessionStore } from './sessions.store.ts';

/** A refusal of the session machine as a wire error: unknown is NOT_FOUND, completed is CONFLICT; both name the session. */
function refusalError(id: string, refusal: SessionRefusal): ActorError {
  if (refusal.code === 'unknown_session') return ActorError.notFound('session', id);
  return new ActorError('CONFLICT', refusal.message, { session_id: id, status: 'completed' });
}

/**
 * The `sessions` actor: owns agent_sessions and agent_session_events, and serves the memory actor's reads of them
 * (searchSimilar, insightEvents). Every command is one transaction that locks
 * the session row, asks the pure machine (sessions.machine.ts) and persists what it decided.
 */
export function createSessionsService(infra: Infra): ServiceSchema {
  let store: SessionStore;
  let search: SessionSearch;
  return {
    name: 'sessions',

    actions: {
      start: action(A.start, async (p) => {
        const session = await store.start(crypto.randomUUID(), p, infra.now());
        infra.log.info({ session_id: session.id, project_id: session.project_id }, 'session started');
        return session;
      }),

      logEvent: action(A.logEvent, async ({ session_id, kind, message, data }) => {
        const out = await store.apply(session_id, { type: 'log_event', kind, message, data }, { now: infra.now() });
        if (!out.ok) throw refusalError(session_id, out.refusal);
        return out.event!;
      }),

      complete: action(A.complete, async ({ session_id, summary }) => {
        const out = await store.apply(session_id, { type: 'complete', summary }, { now: infra.now() });
        if (!out.ok) throw refusalError(session_id, out.refusal);
        infra.log.info({ session_id, events: out.session.event_count }, 'session completed');
        return out.session;
      }),

      list: action(A.list, (q) => store.list(q)),

      get: action(A.get, async ({ id }) => {
        const session = await store.get(id);
        if (!session) throw ActorError.notFound('session', id);
        return session;
      }),

      searchSimilar: action(A.searchSimilar, async ({ query, project_id, limit }) => ({
        experiences: await search.similar(query, project_id ?? null, limit),
      })),

      insightEvents: action(A.insightEvents, async ({ project_id, theme, limit }) => ({
        events: await search.insights(project_id ?? null, theme ?? null, limit),
      })),

      health: healthAction(A.health, 'sessions', async () => {
        await store.ping();
      }),
    },

    async started() {
      const db = await infra.db();
      store = createSessionStore(db);
      search = createSessionSearch(db);
    },
  };
}
