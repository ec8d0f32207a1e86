import { defineAction } from '../define.ts';
import { HarnessCompleteParamsSchema, HarnessCompleteResultSchema } from '../harness-calls.ts';

/** Bus actions of the harness's `calls` part. A classified provider failure is an answer (`outcome: failed`), not a throw. */
export const HarnessCallsActions = {
  complete: defineAction('harness.complete', HarnessCompleteParamsSchema, HarnessCompleteResultSchema),
} as const;
