import crypto from 'node:crypto';
import type { Context, ServiceSchema } from 'moleculer';
import client from 'prom-client';
import { action, call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { getOrCreate } from '../../brokers/metrics.ts';
import { ChatActions as A } from '../../contracts/actions/chat.actions.ts';
import { HarnessConfigActions } from '../../contracts/actions/harness-config.actions.ts';
import type { ChatEventType } from '../../contracts/chat.ts';
import { TURN_PROGRESS_EVENT, type TurnProgress } from '../../contracts/harness-turns.ts';
import { createChatStore, type ChatStore } from './chat.store.ts';
import { assistantRequest } from './assistant.ts';
import { ThreadEventLog } from './event-log.ts';
import { RunningTurn, runChatTurn, type TurnRunnerDeps } from './turn-runner.ts';

/** A running turn's lease: renewed this often by its node; lapsed (no node runs it) this long after the last renewal. */
const LEASE_RENEW_MS = 10_000;
const LEASE_MS = 60_000;

/**
 * The `chat` actor (issue 16): owns chat_threads, chat_messages, chat_turns and chat_events. A posted message starts a
 * turn that runs here, on the harness's agent loop (`harness.turn`, role `chat`); what the turn does is stored as
 * numbered events, announced on a database channel so any chat node's `events` waiters wake (the SSE stream of the
 * gateway reads them, resuming after `Last-Event-ID`). Model-less operation: every action but `events` first asks the
 * harness for the `chat` route and answers SERVICE_UNAVAILABLE naming what to configure when there is none.
 */
export function createChatService(infra: Infra): ServiceSchema {
  let store: ChatStore;
  let unlisten: (() => Promise<void>) | undefined;
  const running = new Map<string, RunningTurn>();
  let events: ThreadEventLog;
  let lease: NodeJS.Timeout | undefined;
  const ungrounded = getOrCreate(
    infra.metrics.registry,
    'service_chat_ungrounded_claim_total',
    () =>
      new client.Counter({
        name: 'service_chat_ungrounded_claim_total',
        help: 'chat replies that claimed work no tool call grounds, by kind',
        labelNames: ['kind'] as const,
        registers: [infra.metrics.registry],
      }),
  );

  const emit = (threadId: string, turnId: string, type: ChatEventType, data: object): Promise<void> =>
    events.emit(threadId, turnId, type, data);
  const deps = (): TurnRunnerDeps => ({ infra, store, emit, ungrounded: (kind) => ungrounded.inc({ kind }) });

  async function ensureChatRoute(ctx: Context, project_id?: string | null): Promise<void> {
    if (!ctx.broker.registry.actions.isAvailable(HarnessConfigActions.resolveRoute.action)) {
      throw new ActorError('SERVICE_UNAVAILABLE', 'chat needs the harness actor, and none is running', {
        failure_class: 'environment',
      });
    }
    const r = await call(ctx, HarnessConfigActions.resolveRoute, {
      role: 'chat',
      ...(project_id ? { project_id } : {}),
    });
    if (r.outcome === 'failed') {
      throw new ActorError('SERVICE_UNAVAILABLE', r.failure.message, { failure_class: 'environment', role: 'chat' });
    }
    if (!r.route.configured) {
      const message = `the chat role routes to ${r.route.provider}:${r.route.model}, and provider ${r.route.provider} has no credential: add one with POST /v1/harness/credentials`;
      throw new ActorError('SERVICE_UNAVAILABLE', message, { failure_class: 'environment', role: 'chat' });
    }
  }

  const lapsedBefore = () => new Date(infra.now().getTime() - LEASE_MS);
  /** Ends the turns no node runs any more (their lease lapsed); of two nodes sweeping one turn, one ends it. */
  async function endLapsed(before: Date): Promise<void> {
    for (const t of await store.lapsedTurns(before)) {
      if (running.has(t.id) || !(await store.failLapsed(t.id, before, infra.now()))) continue;
      await events.begin(t.thread_id);
      const message = 'the service stopped while this turn ran; post the message again';
      await emit(t.thread_id, t.id, 'notify_error', { message });
      await emit(t.thread_id, t.id, 'agent.done', { turn_id: t.id, status: 'failed' });
      await events.close(t.thread_id);
      infra.log.warn({ thread_id: t.thread_id, turn_id: t.id }, 'chat turn ended: no node ran it any more');
    }
  }
  async function renewAndSweep(): Promise<void> {
    await store.renew([...running.keys()], infra.now());
    await endLapsed(lapsedBefore());
  }

  async function threadOf(id: string) {
    const t = await store.thread(id);
    if (!t) throw ActorError.notFound('chat thread', id);
    return t;
  }

  return {
    name: 'chat',

    actions: {
      createThread: action(A.createThread, async (p, ctx) => {
        await ensureChatRoute(ctx, p.project_id);
        return store.createThread({ id: crypto.randomUUID(), ...p }, infra.now());
      }),

      listThreads: action(A.listThreads, async (p, ctx) => {
        await ensureChatRoute(ctx, p.project_id);
        return store.listThreads(p);
      }),

      getThread: action(A.getThread, async ({ thread_id }, ctx) => {
        const thread = await threadOf(thread_id);
        await ensureChatRoute(ctx, thread.project_id);
        return { ...thread, messages: await store.messages(thread_id) };
      }),

      postMessage: action(A.postMessage, async ({ thread_id, content, principal }, ctx) => {
        const thread = await threadOf(thread_id);
        await ensureChatRoute(ctx, thread.project_id);
        const turnId = crypto.randomUUID();
        const message = await store.startTurn(thread_id, turnId, content, infra.now());
        if (!message) {
          throw new ActorError('CONFLICT', `a turn of chat thread ${thread_id} is still running`, { thread_id });
        }
        await events.begin(thread_id);
        const turn = new RunningTurn(deps(), thread, turnId, principal);
        running.set(turnId, turn);
        void runChatTurn(ctx, deps(), turn).finally(async () => {
          running.delete(turnId);
          await events.close(thread_id);
        });
        return { turn_id: turnId, message };
      }),

      assistantRequest: action(A.assistantRequest, async (p, ctx) => {
        await ensureChatRoute(ctx, p.project_id);
        return assistantRequest(ctx, p);
      }),

      events: action(A.events, async ({ thread_id, after_seq, turn_id, wait_ms }) => {
        const found = await events.read(thread_id, after_seq, turn_id, wait_ms);
        if (!found.length) await threadOf(thread_id);
        return { events: found };
      }),
    },

    events: {
      // The harness's progress of a turn running here (other nodes' turns are not in `running`).
      [TURN_PROGRESS_EVENT]: {
        handler(ctx: Context<TurnProgress>) {
          return running.get(ctx.params.topic)?.onProgress(ctx.params);
        },
      },
    },

    async started() {
      const db = await infra.db();
      store = createChatStore(db);
      events = new ThreadEventLog(store, infra.log, () => infra.now());
      // Another node's appends wake this node's readers of the thread. An embedded PGlite database has one node, and
      // listening there costs about 1 ms a chat step (measured in bench:chat), so only a PostgreSQL server is listened to.
      if (db.kind === 'pg') {
        unlisten = await store.listen((payload) => events.announced(payload.slice(0, payload.lastIndexOf(':'))));
      }
      // Turns a stopped process left running end, told as such on their streams: on the embedded database all of them
      // (one node), on a server those whose lease lapsed (a node starting beside a running one leaves its turns alone).
      await endLapsed(db.kind === 'pglite' ? new Date(8.64e15) : lapsedBefore());
      lease = setInterval(() => {
        void renewAndSweep().catch((err: unknown) => infra.log.warn({ err }, 'chat turn lease not renewed'));
      }, LEASE_RENEW_MS);
      lease.unref();
    },

    async stopped() {
      clearInterval(lease);
      await unlisten?.();
    },
  };
}
