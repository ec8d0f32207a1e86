import { defineAction } from '../define.ts';
import {
  HarnessUsageSummarySchema,
  LlmCallInputSchema,
  RecordCallResultSchema,
  UsageWindowSchema,
} from '../harness-usage.ts';

/** Bus actions of the harness actor's usage part (the call ledger). */
export const HarnessUsageActions = {
  /** Records one model call and prices it; idempotent on the call id (a retried call is never charged twice). */
  recordCall: defineAction('harness.recordCall', LlmCallInputSchema, RecordCallResultSchema),
  /** Usage totals of the ledger over a trailing window (`/v1/runs/usage/summary`, `/health` llm_usage_24h). */
  usageSummary: defineAction('harness.usageSummary', UsageWindowSchema, HarnessUsageSummarySchema),
} as const;
