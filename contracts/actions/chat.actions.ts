import { z } from 'zod';
import {
  ChatEventsParamsSchema,
  ChatEventsResultSchema,
  ChatThreadSchema,
  CreateThreadBodySchema,
  ListThreadsQuerySchema,
  PostMessageBodySchema,
  PostMessageResultSchema,
  ThreadWithMessagesSchema,
} from '../chat.ts';
import { defineAction } from '../define.ts';
import { CallPrincipalSchema } from '../principal.ts';
import { AssistantRequestSchema, AssistantResponseSchema } from '../misc.ts';

const ThreadRef = z.object({ thread_id: z.string().min(1).max(200) });

/**
 * Bus actions of the `chat` actor. Every one but `events` first checks that the harness can serve the `chat` role
 * and answers SERVICE_UNAVAILABLE naming what to configure when it cannot (model-less operation stays clear).
 */
export const ChatActions = {
  createThread: defineAction('chat.createThread', CreateThreadBodySchema, ChatThreadSchema),
  listThreads: defineAction(
    'chat.listThreads',
    ListThreadsQuerySchema,
    z.object({ threads: z.array(ChatThreadSchema), total: z.number().int() }),
  ),
  getThread: defineAction('chat.getThread', ThreadRef, ThreadWithMessagesSchema),
  /** Stores the user message and starts its turn; answers at once (the turn runs on, its events on the stream). */
  /** The bus post: the body plus the principal of the request's bearer (decision 0113; the gateway sets it, never a body). */
  postMessage: defineAction(
    'chat.postMessage',
    ThreadRef.extend(PostMessageBodySchema.shape).extend({ principal: CallPrincipalSchema.nullable().default(null) }),
    PostMessageResultSchema,
  ),
  events: defineAction('chat.events', ChatEventsParamsSchema, ChatEventsResultSchema),
  /** `POST /api/v1/assistant/request`: design-change proposals from a request about a project (actors/chat/assistant.ts). */
  assistantRequest: defineAction(
    'chat.assistantRequest',
    AssistantRequestSchema.extend({ principal: CallPrincipalSchema.nullable().optional() }),
    AssistantResponseSchema,
  ),
} as const;
