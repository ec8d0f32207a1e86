import { defineAction } from '../define.ts';
import {
  HarnessCallParamsSchema,
  HarnessCallResultSchema,
  HarnessCompleteParamsSchema,
  HarnessCompleteResultSchema,
} from '../harness-calls.ts';

/** Bus actions of the harness's `calls` part. A classified provider failure is an answer (`outcome: failed`), not a throw. */
export const HarnessCallsActions = {
  complete: defineAction('harness.complete', HarnessCompleteParamsSchema, HarnessCompleteResultSchema),
  /**
   * One model call for a role, routed (rule 11) on a pinned credential: a 401/403 marks the credential dead and
   * retries once on the next, a 429 rotates, a failing route falls back (rule 10). Keys stay in the harness.
   */
  call: defineAction('harness.call', HarnessCallParamsSchema, HarnessCallResultSchema),
} as const;
