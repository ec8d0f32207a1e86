import { z } from 'zod';
import { ModelToolCallSchema } from './harness-calls.ts';

/**
 * Wire shapes of chat threads (issue 16, SPEC "Chat stream"): threads, their messages, and the events of each turn as
 * the stream carries them. A turn is one posted user message and the model's answer to it, tools included.
 */

const Id = z.string().min(1).max(200);

export const ChatThreadSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  run_id: z.string().nullable(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The turn of the last posted message (null: none yet) and whether it is still running. */
  last_turn: z.object({ id: z.string(), status: z.enum(['running', 'done', 'failed']) }).nullable(),
});
export type ChatThread = z.infer<typeof ChatThreadSchema>;

export const ChatMessageRecordSchema = z.object({
  seq: z.number().int().min(1),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string(),
  tool_calls: z.array(ModelToolCallSchema),
  tool_call_id: z.string().nullable(),
  turn_id: z.string().nullable(),
  created_at: z.string(),
});
export type ChatMessageRecord = z.infer<typeof ChatMessageRecordSchema>;

export const CreateThreadBodySchema = z.object({
  project_id: Id.optional(),
  run_id: Id.optional(),
  title: z.string().trim().min(1).max(200).default('New thread'),
});

export const ListThreadsQuerySchema = z.object({
  project_id: Id.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ThreadWithMessagesSchema = ChatThreadSchema.extend({ messages: z.array(ChatMessageRecordSchema) });

export const PostMessageBodySchema = z.object({ content: z.string().trim().min(1).max(32_000) });

/** What posting a message answers: its turn (follow it on the stream with `?turn_id=`) and the stored message. */
export const PostMessageResultSchema = z.object({ turn_id: z.string(), message: ChatMessageRecordSchema });

/** The stream's events (SPEC "Chat stream" plus text deltas, tool calls and their results, and the final message). */
export const ChatEventTypeSchema = z.enum([
  'context.stats',
  'text.delta',
  'tool.call',
  'tool.result',
  'tool.approval_requested',
  'message',
  'notify_error',
  'agent.done',
]);
export type ChatEventType = z.infer<typeof ChatEventTypeSchema>;

/** One stream event; `seq` is its SSE id, numbered per thread, so `Last-Event-ID` resumes after it. */
export const ChatEventSchema = z.object({
  seq: z.number().int().min(1),
  turn_id: z.string(),
  type: ChatEventTypeSchema,
  data: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type ChatEvent = z.infer<typeof ChatEventSchema>;

/**
 * Params of `chat.events`: the thread's events after `after_seq` (of `turn_id` only, when given), waiting up to
 * `wait_ms` for the first one when there is none yet.
 */
export const ChatEventsParamsSchema = z.object({
  thread_id: Id,
  after_seq: z.number().int().min(0).default(0),
  turn_id: Id.optional(),
  wait_ms: z.number().int().min(0).max(60_000).default(0),
});
export const ChatEventsResultSchema = z.object({ events: z.array(ChatEventSchema) });

/** The SSE stream's query: a turn to follow (default: the thread's last turn, else the next one). */
export const ChatStreamQuerySchema = z.object({ turn_id: Id.optional() });
