import { z } from 'zod';
import { defineAction } from '../define.ts';
import { UsageTotalsSchema } from '../flows.ts';
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
  /** Records several calls at once (an agent turn's steps), each as `recordCall` would; answers in their order. */
  recordCalls: defineAction(
    'harness.recordCalls',
    z.object({ calls: z.array(LlmCallInputSchema).min(1).max(500) }),
    z.object({ results: z.array(RecordCallResultSchema) }),
  ),
  /** Usage totals of the ledger over a trailing window (`/v1/runs/usage/summary`, `/health` llm_usage_24h). */
  usageSummary: defineAction('harness.usageSummary', UsageWindowSchema, HarnessUsageSummarySchema),
  /** Usage totals of every call recorded for one run (none recorded: zero calls, cost null). */
  runUsage: defineAction('harness.runUsage', z.object({ run_id: z.string().min(1).max(200) }), UsageTotalsSchema),
} as const;
