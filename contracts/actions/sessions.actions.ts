import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ComponentHealthSchema } from '../health.ts';
import {
  AgentSessionSchema,
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
  health: defineAction('sessions.health', z.object({}), ComponentHealthSchema),
} as const;
