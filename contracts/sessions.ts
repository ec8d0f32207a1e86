import { z } from 'zod';
import { ConsolidatedInsightSchema } from './memory.ts';
import { MemoryConfidenceTierSchema, MemoryThemeSchema } from './misc.ts';

/**
 * Captured agent sessions (SPEC "Endpoints": `/v1/sessions`; TOOLS.md `session`, `memory`). The spec names the
 * resource only; the fields are this service's choice, documented in README ("Sessions").
 */

/** A session is active until `session.complete` closes it with a summary; a completed session takes no events. */
export const SessionStatusSchema = z.enum(['active', 'completed']);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** What an event records; `insight` and `lesson` are what `memory.list_insights` serves. */
export const SessionEventKindSchema = z.enum(['note', 'decision', 'tool_call', 'insight', 'lesson', 'error']);
export type SessionEventKind = z.infer<typeof SessionEventKindSchema>;

/** Session ids are uuids; any other string is simply an unknown session (never a malformed request). */
export const SessionIdSchema = z.string().min(1).max(200);

/** One captured agent session. `summary` and `completed_at` are null while it is active. */
export const AgentSessionSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  title: z.string(),
  client: z.string().nullable(),
  status: SessionStatusSchema,
  summary: z.string().nullable(),
  started_at: z.string(),
  completed_at: z.string().nullable(),
  event_count: z.number().int().min(0),
});
export type AgentSession = z.infer<typeof AgentSessionSchema>;

/** One event of a session; `seq` counts from 1 per session, without gaps. */
export const SessionEventSchema = z.object({
  session_id: z.string(),
  seq: z.number().int().min(1),
  kind: SessionEventKindSchema,
  message: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type SessionEvent = z.infer<typeof SessionEventSchema>;

/** `GET /v1/sessions/{id}`: the session with all its events in order. */
export const SessionWithEventsSchema = AgentSessionSchema.extend({ events: z.array(SessionEventSchema) });
export type SessionWithEvents = z.infer<typeof SessionWithEventsSchema>;

/** `session.start` arguments and `sessions.start` params (client defaults to the MCP client's name). */
export const SessionStartSchema = z.object({
  title: z.string().trim().min(1).max(500),
  project_id: z.string().min(1).max(200).optional(),
  client: z.string().min(1).max(200).optional(),
});
export type SessionStart = z.infer<typeof SessionStartSchema>;

/** Largest `data` object an event carries, serialised. */
export const SESSION_EVENT_DATA_MAX_CHARS = 100_000;

/** `session.log_event` arguments. */
export const SessionLogEventSchema = z.object({
  session_id: SessionIdSchema,
  kind: SessionEventKindSchema.default('note'),
  message: z.string().trim().min(1).max(20_000),
  data: z
    .record(z.string(), z.unknown())
    .default({})
    .refine((d) => JSON.stringify(d).length <= SESSION_EVENT_DATA_MAX_CHARS, {
      message: `data is larger than ${SESSION_EVENT_DATA_MAX_CHARS} characters as JSON`,
    }),
});
export type SessionLogEvent = z.infer<typeof SessionLogEventSchema>;

/** `session.complete` arguments. */
export const SessionCompleteSchema = z.object({
  session_id: SessionIdSchema,
  summary: z.string().trim().min(1).max(20_000),
});
export type SessionComplete = z.infer<typeof SessionCompleteSchema>;

/** `GET /v1/sessions` query. */
export const SessionListQuerySchema = z.object({
  project_id: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type SessionListQuery = z.infer<typeof SessionListQuerySchema>;

/** `GET /v1/sessions` answer, newest first. */
export const SessionListSchema = z.object({
  sessions: z.array(AgentSessionSchema),
  total: z.number().int().min(0),
  /** With a project filter: the items left out because they record no project (as the approvals list). */
  unscoped_count: z.number().int().min(0).default(0),
});
export type SessionList = z.infer<typeof SessionListSchema>;

/** `memory.retrieve_similar_experience` arguments: the query's words are OR-ed and ranked (README "Memory"). */
export const ExperienceQuerySchema = z.object({
  query: z.string().trim().min(1).max(2000),
  project_id: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(50).default(5),
});
export type ExperienceQuery = z.infer<typeof ExperienceQuerySchema>;

/** An event that matched the query, with its own rank inside the session. */
export const RelevantEventSchema = SessionEventSchema.extend({ score: z.number() });
export type RelevantEvent = z.infer<typeof RelevantEventSchema>;

/** One similar experience: a session, its similarity score and its most relevant events (at most 3). */
export const ExperienceSchema = z.object({
  session: AgentSessionSchema,
  score: z.number(),
  events: z.array(RelevantEventSchema),
});
export type Experience = z.infer<typeof ExperienceSchema>;

/**
 * `memory.retrieve_similar_experience` result; an empty list is a normal answer. `consolidated`: stored consolidated
 * insights whose text matches the query (optional: the sessions actor's own answer has none).
 */
export const ExperienceListSchema = z.object({
  query: z.string(),
  experiences: z.array(ExperienceSchema),
  consolidated: z.array(ConsolidatedInsightSchema).optional(),
});
export type ExperienceList = z.infer<typeof ExperienceListSchema>;

/** `memory.list_insights` arguments; theme filters on the event's `data.theme`. */
export const InsightQuerySchema = z.object({
  project_id: z.string().min(1).max(200).optional(),
  theme: MemoryThemeSchema.optional(),
  limit: z.number().int().min(1).max(200).default(20),
});
export type InsightQuery = z.infer<typeof InsightQuerySchema>;

/** An insight or lesson as logged: verbatim until consolidation produces llm_inferred or derived ones. */
export const InsightSchema = z.object({
  session_id: z.string(),
  session_title: z.string(),
  project_id: z.string().nullable(),
  seq: z.number().int(),
  kind: z.enum(['insight', 'lesson']),
  message: z.string(),
  theme: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  confidence: MemoryConfidenceTierSchema,
});
export type Insight = z.infer<typeof InsightSchema>;

/** An insight or lesson event as the sessions actor serves it to memory (`sessions.insightEvents`): no confidence tier. */
export const InsightEventSchema = InsightSchema.omit({ confidence: true });
export type InsightEvent = z.infer<typeof InsightEventSchema>;

/**
 * `memory.list_insights` result, newest first: the verbatim insights as logged, and (`consolidated`, optional for
 * older callers) the consolidated ones, each list filtered alike and limited to `limit` on its own.
 */
export const InsightListSchema = z.object({
  insights: z.array(InsightSchema),
  consolidated: z.array(ConsolidatedInsightSchema).optional(),
});
export type InsightList = z.infer<typeof InsightListSchema>;
