import { defineAction } from '../define.ts';
import {
  HarnessCallParamsSchema,
  HarnessCallResultSchema,
  HarnessCompleteParamsSchema,
  HarnessCompleteResultSchema,
} from '../harness-calls.ts';
import { HarnessTurnParamsSchema, HarnessTurnResultSchema } from '../harness-turns.ts';

/** Bus actions of the harness's `calls` part. A classified provider failure is an answer (`outcome: failed`), not a throw. */
export const HarnessCallsActions = {
  complete: defineAction('harness.complete', HarnessCompleteParamsSchema, HarnessCompleteResultSchema),
  /**
   * One model call for a role, routed (rule 11) on a pinned credential: a 401/403 marks the credential dead and
   * retries once on the next, a 429 rotates, a failing route falls back (rule 10). Keys stay in the harness.
   */
  call: defineAction('harness.call', HarnessCallParamsSchema, HarnessCallResultSchema),
  /**
   * One agent turn: `harness.call` in steps, the tools each step asks for run through the registry (rules 1-5, 9),
   * until the model answers without tool calls or `max_steps` is reached. Every step's call is in the ledger.
   */
  turn: defineAction('harness.turn', HarnessTurnParamsSchema, HarnessTurnResultSchema),
} as const;
