import { z } from 'zod';
import { defineAction } from '../define.ts';
import { GateFindingSchema, LedgerKindSchema } from '../approvals.ts';
import { LedgerRecordSchema } from './approvals.actions.ts';
import { RunViewSchema } from './runs.actions.ts';

/**
 * Query actions the owners of the approvals queue's sources offer for the queue's reads (issue 13 point 1: the queue
 * runs no SQL on another actor's tables): the runs actor's gates and flow approval states, the holds actor's ledger.
 */

/** Which records a queue read covers: every project (absent), only those without one (null), or one project. */
const ScopeSchema = z.string().nullable().optional();
const StatusSchema = z.enum(['pending', 'decided', 'all']);

/** The last gate event of an ended run (opened and never decided, or decided), read from its log. */
export const LastGateSchema = z
  .object({
    type: z.string(),
    phase: z.string(),
    gate_id: z.string(),
    attempt: z.number(),
    findings: z.array(GateFindingSchema).optional(),
    ready: z.boolean(),
    at: z.string(),
  })
  .passthrough();
export type LastGate = z.infer<typeof LastGateSchema>;

/** A run as the queue reads it: its log position, its view at that position, the last gate event of an ended run. */
export const GateRowSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  view: RunViewSchema,
  last_gate: LastGateSchema.nullable(),
});
export type GateRow = z.infer<typeof GateRowSchema>;

export const FlowApprovalKindSchema = z.enum(['flow_patch', 'flow_version', 'flow_proposal']);

export const RunsQueueActions = {
  /** Runs that may carry a gate item of this status (parked at a gate, ended with one undecided, or with decisions). */
  gates: defineAction(
    'runs.queueGates',
    z.object({ status: StatusSchema, project_id: ScopeSchema }),
    z.object({ rows: z.array(GateRowSchema) }),
  ),
  /** These runs (unknown ids are left out): one read for the decisions of one event-loop turn. */
  gatesOf: defineAction(
    'runs.queueGatesOf',
    z.object({ run_ids: z.array(z.string()).max(5000) }),
    z.object({ rows: z.array(GateRowSchema) }),
  ),
  /** Runs without a project parked at a gate (counted), and failed ones whose last gate event opened a gate (listed). */
  unscoped: defineAction(
    'runs.queueUnscoped',
    z.object({}),
    z.object({ awaiting: z.number().int(), ended_open: z.array(z.object({ id: z.string(), gate_id: z.string() })) }),
  ),
  /**
   * Writes a decided flow approval into its flow row (flow_patches / flow_proposals), only while that row is pending:
   * a repeat is a no-op (`moved` false). The runs actor applies or starts only approved ones.
   */
  settleFlow: defineAction(
    'runs.settleFlowApproval',
    z.object({
      kind: FlowApprovalKindSchema,
      detail: z.record(z.string(), z.unknown()),
      approved: z.boolean(),
      decided_by: z.string(),
      decided_at: z.string(),
    }),
    z.object({ moved: z.boolean() }),
  ),
} as const;

export const HoldsQueueActions = {
  /** Ledger records of this status, scope and kinds, newest first, and (asked) how many of them have no project. */
  ledger: defineAction(
    'holds.queueLedger',
    z.object({
      status: StatusSchema,
      project_id: ScopeSchema,
      kinds: z.array(LedgerKindSchema).optional(),
      count_unscoped: z.boolean().default(false),
    }),
    z.object({ records: z.array(LedgerRecordSchema), unscoped_count: z.number().int() }),
  ),
} as const;
