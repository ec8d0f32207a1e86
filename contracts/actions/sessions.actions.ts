import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ComponentHealthSchema } from '../health.ts';
import {
  AgentSessionSchema,
  ExperienceQuerySchema,
  ExperienceSchema,
  InsightEventSchema,
  InsightQuerySchema,
  SessionCompleteSchema,
  SessionEventSchema,
  SessionIdSchema,
  SessionListQuerySchema,
  SessionListSchema,
  SessionLogEventSchema,
  SessionStartSchema,
  SessionWithEventsSchema,
} from '../sessions.ts';

/**
 * Bus actions of the `sessions` actor (tables agent_sessions, agent_session_events). An unknown session is NOT_FOUND,
 * an event or completion on a completed session is CONFLICT; both name the session.
 */
export const SessionsActions = {
  start: defineAction('sessions.start', SessionStartSchema, AgentSessionSchema),
  logEvent: defineAction('sessions.logEvent', SessionLogEventSchema, SessionEventSchema),
  complete: defineAction('sessions.complete', SessionCompleteSchema, AgentSessionSchema),
  list: defineAction('sessions.list', SessionListQuerySchema, SessionListSchema),
  get: defineAction('sessions.get', z.object({ id: SessionIdSchema }), SessionWithEventsSchema),
  /** Query actions for the memory actor: full-text similar sessions, and insight/lesson events (read-only). */
  searchSimilar: defineAction(
    'sessions.searchSimilar',
    ExperienceQuerySchema,
    z.object({ experiences: z.array(ExperienceSchema) }),
  ),
  insightEvents: defineAction(
    'sessions.insightEvents',
    InsightQuerySchema,
    z.object({ events: z.array(InsightEventSchema) }),
  ),
  health: defineAction('sessions.health', z.object({}), ComponentHealthSchema),
} as const;
