import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { ChatActions as A } from '../../contracts/actions/chat.actions.ts';
import {
  ChatStreamQuerySchema,
  ChatThreadSchema,
  CreateThreadBodySchema,
  ListThreadsQuerySchema,
  PostMessageBodySchema,
  PostMessageResultSchema,
  ThreadWithMessagesSchema,
} from '../../contracts/chat.ts';
import { SseWriter } from '../mcp/sse.ts';
import type { GatewayDeps } from '../deps.ts';
import { startedByOfRequest } from './run-starter.ts';

const ThreadParams = z.object({ id: z.string().min(1).max(200) });
/** How long one read of the stream waits for the next event before a keep-alive comment. */
const POLL_MS = 5_000;

/** The event number after which a reconnecting client resumes (`Last-Event-ID`); undefined when absent. */
function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const v = Array.isArray(header) ? header[0] : header;
  if (!/^\d{1,9}$/.test(v ?? '')) {
    throw new ActorError('VALIDATION_FAILED', 'Last-Event-ID must be the number of an event of this stream', {
      issues: [{ path: 'last-event-id', message: 'is not an event number' }],
    });
  }
  return Number(v);
}

/**
 * Chat threads under `/v1/chat` (issue 16; the spec names the stream, the rest is this service's choice): create and
 * list threads, one thread with its messages, post a message (202: its turn runs on), and the SSE stream of a turn:
 * `?turn_id=` (default the thread's last turn, else the next one), resuming after `Last-Event-ID`, ending after
 * `agent.done`; resuming after the end of a finished turn is 204 (an EventSource stops reconnecting). Each event's SSE id is its number in the thread.
 */
export function chatRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/threads',
      { schema: { body: CreateThreadBodySchema, response: { 201: ChatThreadSchema } } },
      async (req, reply) => reply.code(201).send(await call(deps.caller, A.createThread, req.body)),
    );

    r.get(
      '/threads',
      {
        schema: {
          querystring: ListThreadsQuerySchema,
          response: { 200: z.object({ threads: z.array(ChatThreadSchema), total: z.number() }) },
        },
      },
      (req) => call(deps.caller, A.listThreads, req.query),
    );

    r.get('/threads/:id', { schema: { params: ThreadParams, response: { 200: ThreadWithMessagesSchema } } }, (req) =>
      call(deps.caller, A.getThread, { thread_id: req.params.id }),
    );

    r.post(
      '/threads/:id/messages',
      { schema: { params: ThreadParams, body: PostMessageBodySchema, response: { 202: PostMessageResultSchema } } },
      // The turn's model calls name the bearer's principal in the usage ledger (decision 0113); none without a header.
      async (req, reply) => {
        const by = await startedByOfRequest(deps, req.headers.authorization);
        const principal = by && { subject: by.subject, client_id: by.client_id };
        reply
          .code(202)
          .send(await call(deps.caller, A.postMessage, { thread_id: req.params.id, ...req.body, principal }));
      },
    );

    r.get(
      '/threads/:id/stream',
      { schema: { params: ThreadParams, querystring: ChatStreamQuerySchema } },
      async (req, reply) => {
        const thread_id = req.params.id;
        const resume = lastEventId(req.headers['last-event-id']);
        const thread = await call(deps.caller, A.getThread, { thread_id });
        // A fresh stream follows the named turn, else the last one; a resumed one carries on after its last event.
        const turn_id = req.query.turn_id ?? (resume === undefined ? thread.last_turn?.id : undefined);
        let after = resume ?? 0;
        // A client resuming after the end of a turn that is over (a browser's EventSource reconnects by itself when a
        // stream ends) gets 204, which tells it to stop; a finished turn is never waited on.
        const running = thread.last_turn?.status === 'running' ? thread.last_turn.id : undefined;
        const finished = turn_id === undefined ? !running : turn_id !== running;
        if (resume !== undefined && finished) {
          const rest = await call(deps.caller, A.events, { thread_id, after_seq: after, turn_id, wait_ms: 0 });
          if (!rest.events.length) return reply.code(204).send();
        }
        reply.hijack();
        const writer = new SseWriter(reply.raw);
        writer.start();
        writer.comment('stream open');
        while (!writer.closed) {
          const { events } = await call(
            deps.caller,
            A.events,
            { thread_id, after_seq: after, turn_id, wait_ms: POLL_MS },
            { timeout: POLL_MS + deps.config.SERVICE_REQUEST_TIMEOUT_MS },
          ).catch(() => ({ events: [] }));
          if (!events.length) writer.comment();
          for (const e of events) {
            writer.send({ ...e.data, turn_id: e.turn_id }, e.type, e.seq);
            after = e.seq;
            if (e.type === 'agent.done') return writer.end();
          }
        }
      },
    );
  };
}
