import { z } from 'zod';
import { GateDefSchema, PhaseDefSchema } from './flow-defs.ts';
import {
  CapabilityViewSchema,
  CompletionVerdictSchema,
  DesignFlowSchema,
  ModelRouteSchema,
  PhaseViewValueSchema,
  UsageBucketSchema,
  UsageTotalsSchema,
} from './flows.ts';

/** Flow state of a run (`GET /v1/runs/{id}/flow-state`): phases with their graph fields and usage, plus mode, running, skipped. */
export const FlowStatePhaseSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  attempt: z.number().int(),
  retries: z.number().int(),
  /** Effective dependencies (unset `depends_on` resolved to the previous phase). */
  depends_on: z.array(z.string()),
  condition: z.string().nullable(),
  skip_reason: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  usage: UsageBucketSchema,
});

/** The run-level flow state; `mode` is `linear` when every phase follows the previous one, else `graph`. */
export const FlowStateSchema = z.object({
  run_id: z.string(),
  project_id: z.string().nullable(),
  design_flow: z.string(),
  version_id: z.string(),
  content_hash: z.string(),
  status: z.string(),
  mode: z.enum(['linear', 'graph']),
  running: z.array(z.string()),
  skipped: z.array(z.string()),
  /** Phases whose work finished, waiting for their gate to open, in flow order. */
  queued_gates: z.array(z.string()),
  gate: z.object({ phase: z.string(), gate_id: z.string(), ready: z.boolean(), stalled: z.boolean() }).nullable(),
  reworks: z.number().int(),
  usage: UsageTotalsSchema,
  phases: z.array(FlowStatePhaseSchema),
});
export type FlowState = z.infer<typeof FlowStateSchema>;

/** Trailing-window usage summary (`GET /v1/runs/usage/summary?window_hours=`). */
export const UsageSummarySchema = z.object({
  window_hours: z.number().int(),
  since: z.string(),
  until: z.string(),
  /** Runs created or updated inside the window. */
  runs: z.number().int(),
  /** The principal filter of `usage` (decision 0113), when one was asked for. */
  subject: z.string().optional(),
  usage: UsageTotalsSchema,
});

/** What a requirement's value was read from: a simulation result, the geometry or a test result, by node id. */
export const RequirementEvidenceSchema = z.object({
  kind: z.enum(['simulation_result', 'geometry', 'test_result']),
  node_id: z.string(),
  ref: z.string().nullable(),
});
export type RequirementEvidence = z.infer<typeof RequirementEvidenceSchema>;

/** A requirement's status as the one evaluator judges it (contracts/requirement-verdicts.ts, decision 0080). */
export const RequirementStatusSchema = z.enum(['pass', 'fail', 'not_verified', 'stale', 'waived']);

/** One requirement (a constraint of the run's constraint sets) against the run's own evidence; no data never passes. */
export const RequirementResultSchema = z.object({
  id: z.string(),
  constraint_set: z.string(),
  metric: z.string(),
  operator: z.string(),
  limit: z.number(),
  unit: z.string(),
  severity: z.string(),
  /** Severity `error`: it must pass for COMPLETED_VERIFIED. */
  mandatory: z.boolean(),
  status: z.enum(['pass', 'fail', 'no_data']),
  /** The evaluator's own status (no_data split into not_verified and stale; waived shown as pass in `status`). */
  verdict: RequirementStatusSchema.optional(),
  value: z.number().nullable(),
  evidence: RequirementEvidenceSchema.nullable(),
  note: z.string(),
});
export type RequirementResult = z.infer<typeof RequirementResultSchema>;

/** Phase view values by field (SPEC "Phase view"; values from PhaseViewValueSchema). */
export const ExecutionStatusSchema = PhaseViewValueSchema.extract([
  'PENDING',
  'RUNNING',
  'AWAITING_GATE',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'SKIPPED',
]);
/** Eligibility: PENDING (dependencies not done), ELIGIBLE, BLOCKED (pending with a blocking capability gap), SKIPPED. */
export const EligibilitySchema = PhaseViewValueSchema.extract(['PENDING', 'ELIGIBLE', 'BLOCKED', 'SKIPPED']);
/** Validity of a phase's outputs: VALID, STALE (an item it approved was superseded), POTENTIALLY_INVALID (downstream of a stale phase). */
export const ValiditySchema = PhaseViewValueSchema.extract([
  'PENDING',
  'VALID',
  'STALE',
  'POTENTIALLY_INVALID',
  'SKIPPED',
]);
/** Whether the phase's objective is shown met (COMPLETED) with current evidence. */
export const ObjectiveStatusSchema = PhaseViewValueSchema.extract([
  'PENDING',
  'COMPLETED',
  'FAILED',
  'BLOCKED',
  'STALE',
  'SKIPPED',
]);

/** One phase of the lifecycle view. */
export const LifecyclePhaseSchema = z.object({
  id: z.string(),
  title: z.string(),
  execution_status: ExecutionStatusSchema,
  eligibility: EligibilitySchema,
  validity: ValiditySchema,
  objective_status: ObjectiveStatusSchema,
  notes: z.array(z.string()),
});
export type LifecyclePhase = z.infer<typeof LifecyclePhaseSchema>;

/** A twin item or record the run produced that is no longer current. */
export const StaleEntrySchema = z.object({
  node_id: z.string(),
  ref: z.string().nullable(),
  phase: z.string().nullable(),
  reason: z.string(),
});

/** A required deliverable no registered tool can fully produce (from the capability report). */
export const CapabilityGapSchema = z.object({
  phase: z.string(),
  deliverable: z.string(),
  capability: z.string(),
  blocking: z.boolean(),
});

/** Lifecycle view (`GET /v1/runs/{id}/lifecycle`, `flow.lifecycle`): phase view, completion verdict, limits, next step. */
export const LifecycleViewSchema = z.object({
  run_id: z.string(),
  project_id: z.string().nullable(),
  design_flow: z.string(),
  version_id: z.string(),
  status: z.string(),
  verdict: CompletionVerdictSchema,
  phases: z.array(LifecyclePhaseSchema),
  requirements: z.array(RequirementResultSchema),
  stale: z.array(StaleEntrySchema),
  gaps: z.array(CapabilityGapSchema),
  warnings: z.array(z.string()),
  /** What could not be read or compared; the verdict is only as good as these allow. */
  limits: z.array(z.string()),
  nextStep: z.string(),
});
export type LifecycleView = z.infer<typeof LifecycleViewSchema>;

/** `flow.verify_completion`: the verdict and the evidence behind it. */
export const CompletionCheckSchema = LifecycleViewSchema.pick({
  run_id: true,
  verdict: true,
  requirements: true,
  stale: true,
  warnings: true,
  limits: true,
  nextStep: true,
}).extend({
  verified: z.boolean(),
});

/** One item revision a run produced and what its gate did with it (`GET /v1/twin/runs/{id}/changes`). */
export const RunRevisionSchema = z.object({
  node_id: z.string(),
  key: z.string(),
  item_type: z.string(),
  name: z.string(),
  revision: z.number().int(),
  ref: z.string(),
  status: z.string(),
  phase: z.string().nullable(),
  gate: z.string().nullable(),
  status_reason: z.string().nullable(),
  /** approved (committed into a baseline), waiting (a draft before its gate), closed (rejected or abandoned). */
  outcome: z.enum(['approved', 'waiting', 'closed']),
  baseline_id: z.string().nullable(),
  superseded: z.boolean(),
  created_at: z.string(),
});

/** One gate of the run and its outcome. */
export const RunGateOutcomeSchema = z.object({
  gate_id: z.string(),
  phase: z.string(),
  name: z.string(),
  decision: z.string().nullable(),
  reason: z.string(),
  approver: z.string().nullable(),
  decided_at: z.string().nullable(),
  outcome: z.enum(['approved', 'waiting', 'closed']),
  baseline_id: z.string().nullable(),
  revisions: z.array(z.string()),
});

/** `GET /v1/twin/runs/{id}/changes`: the run's item revisions and its gates. */
export const RunChangesSchema = z.object({
  run_id: z.string(),
  project_id: z.string().nullable(),
  revisions: z.array(RunRevisionSchema),
  gates: z.array(RunGateOutcomeSchema),
});
export type RunChanges = z.infer<typeof RunChangesSchema>;

/** How well the registered tools can produce a deliverable (reference `flow.capabilities`). */
export const CapabilityLevelSchema = z.enum(['FULL', 'PARTIAL', 'UNAVAILABLE', 'UNKNOWN']);
export type CapabilityLevel = z.infer<typeof CapabilityLevelSchema>;

/** One required deliverable: its capability level, the tools present and missing for it. */
export const DeliverableCapabilitySchema = z.object({
  type: z.string(),
  capability: CapabilityLevelSchema,
  tools_available: z.array(z.string()),
  tools_missing: z.array(z.string()),
  note: z.string(),
});

/** Overall readiness of a phase or flow: its deliverables' capabilities, and BLOCKED when a phase cannot run now. */
export const CapabilityStatusSchema = z.enum(['READY', 'READY_WITH_WARNINGS', 'BLOCKED']);

/** What drives a phase of a capability report (actors/runs/phase-readiness.ts). */
export const PhaseDriverSchema = z.enum(['deterministic', 'model', 'none']);
export type PhaseDriver = z.infer<typeof PhaseDriverSchema>;

/** Capability report: per phase, whether it can run now and what is missing, each required deliverable, and the overall status. */
export const CapabilityReportSchema = z.object({
  status: CapabilityStatusSchema,
  phases: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: CapabilityStatusSchema,
      /** The phase can run now: its deterministic handler is used and every tool its deliverables need can run. */
      runnable: z.boolean(),
      /** What would drive it: its deterministic handler, the model brain (a usable phase_brain route), or nothing. */
      handler: PhaseDriverSchema,
      /** Sentences naming what is missing (handler, model route, adapter, tool); empty when runnable. */
      missing: z.array(z.string()),
      deliverables: z.array(DeliverableCapabilitySchema),
    }),
  ),
  warnings: z.array(z.string()),
  unavailable_adapters: z.array(z.string()),
  tool_count: z.number().int(),
});
export type CapabilityReport = z.infer<typeof CapabilityReportSchema>;

/** Capability view with the report typed. */
export const CapabilityResultSchema = CapabilityViewSchema.extend({ report: CapabilityReportSchema });
export type CapabilityResult = z.infer<typeof CapabilityResultSchema>;

/** A phase in a patch: the phase definition with the condition unchecked here, so a bad one is refused naming its position. */
export const PatchPhaseSchema = PhaseDefSchema.extend({ condition: z.string().min(1).optional() });

/** Fields a `modify_phase` operation may change; a graph field set to null is removed. */
export const PhaseChangesSchema = z
  .object({
    title: z.string().min(1),
    objective: z.string().min(1),
    required_deliverables: z.array(z.string()),
    expected_artifacts: z.array(z.string()),
    enforce_deliverables: z.boolean(),
    disciplines: z.array(z.string()),
    gate: GateDefSchema,
    depends_on: z.array(z.string().min(1)).nullable(),
    condition: z.string().min(1).nullable(),
    outcome: z.string().min(1).nullable(),
    model: ModelRouteSchema.nullable(),
  })
  .partial();

/** The closed operation set of flow patches and proposals. */
export const FlowOperationSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('add_phase'),
    phase: PatchPhaseSchema,
    after: z.string().min(1).optional().describe('insert after this phase (default: at the end)'),
  }),
  z.object({ op: z.literal('remove_phase'), phase_id: z.string().min(1) }),
  z.object({ op: z.literal('modify_phase'), phase_id: z.string().min(1), changes: PhaseChangesSchema }),
]);
export type FlowOperation = z.infer<typeof FlowOperationSchema>;

/** `POST /v1/runs/{id}/patches` body; base_hash is the content hash the patch was written against (default: the run's current). */
export const PatchProposeBodySchema = z.object({
  operations: z.array(FlowOperationSchema).min(1).max(50),
  reason: z.string().max(2000).default(''),
  base_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

/** A patch's approval state (pending, approved, rejected) and what the runs actor did with it (applied, stale). */
export const PatchStatusSchema = z.enum(['pending', 'approved', 'rejected', 'applied', 'stale']);

/** A proposed flow patch: a new frozen version of the run's flow, held for a person (kind flow_patch). */
export const PatchViewSchema = z.object({
  run_id: z.string(),
  version: z.number().int(),
  version_id: z.string(),
  content_hash: z.string(),
  base_hash: z.string(),
  status: PatchStatusSchema,
  reason: z.string(),
  affected: z.array(z.string()),
  approval: z.object({ kind: z.literal('flow_patch'), status: z.string() }),
  created_at: z.string(),
  nextStep: z.string(),
});
export type PatchView = z.infer<typeof PatchViewSchema>;

/** `flow.propose`: a tailored flow from a built-in one, frozen as a version held for a person (kind flow_version). */
export const FlowProposeSchema = z.object({
  base_flow: DesignFlowSchema,
  operations: z.array(FlowOperationSchema).max(50).default([]),
  facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  reason: z.string().max(2000).default(''),
  /**
   * What the flow is for, in the requester's words: with no operations given and a flow_generator route, the model
   * proposes the operations (checked like any others); otherwise the base flow, with a note saying why.
   */
  request: z.string().min(1).max(20_000).optional(),
});

/** A proposed flow version and its approval (kind flow_version). */
export const FlowProposalViewSchema = z.object({
  version_id: z.string(),
  flow_id: z.string(),
  content_hash: z.string(),
  phases: z.array(z.string()),
  status: z.enum(['pending', 'approved', 'rejected']),
  approval: z.object({ kind: z.literal('flow_version'), status: z.string() }),
  nextStep: z.string(),
  /** How a proposal from a request was tailored: by the flow_generator model (naming it), or why it was not. */
  note: z.string().optional(),
});

/** The built-in design flows (`flow.list`): each phase with its effective dependencies and gate. */
export const FlowCatalogSchema = z.object({
  flows: z.array(
    z.object({
      id: z.string(),
      version: z.string(),
      name: z.string(),
      phases: z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          objective: z.string(),
          required_deliverables: z.array(z.string()),
          depends_on: z.array(z.string()),
          condition: z.string().nullable(),
          gate: z.object({ name: z.string(), gate_id: z.string(), enforce_constraints: z.boolean() }),
        }),
      ),
    }),
  ),
});
