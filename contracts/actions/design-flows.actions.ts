import { z } from 'zod';
import { defineAction } from '../define.ts';
import {
  CapabilityResultSchema,
  FlowCatalogSchema,
  FlowProposalViewSchema,
  FlowProposeSchema,
  FlowStateSchema,
  LifecycleViewSchema,
  PatchProposeBodySchema,
  PatchViewSchema,
  RunChangesSchema,
  UsageSummarySchema,
} from '../design-flows.ts';
import { AppliedPatchViewSchema, UsageTotalsSchema } from '../flows.ts';
import { RunViewSchema, StartedByField } from './runs.actions.ts';
import { CallPrincipalSchema } from '../principal.ts';

const RunId = z.object({ run_id: z.string().min(1) });

/** `runs.capabilities`: a built-in flow by id, or a stored frozen version; profile narrows the tools considered. */
export const CapabilitiesParamsSchema = z.object({
  flow: z.string().min(1).optional(),
  version_id: z.string().min(1).optional(),
  profile: z.string().min(1).optional(),
});

/** `runs.startVersion`: starts a run on a stored, approved frozen flow version (`flow.start_run` with version_id). */
export const StartVersionSchema = z.object({
  version_id: z.string().min(1),
  project_id: z.string().min(1).nullable().optional(),
  goal: z.string().min(1).max(20_000),
  context: z.record(z.string(), z.unknown()).default({}),
  ...StartedByField,
});

/**
 * Design-flow actions served by the `runs` actor beside start/get/decide (spread into it from
 * `actors/runs/design-flow.actions.ts`): usage, flow state, lifecycle and completion verdict, the run's twin changes,
 * capability reports, flow patches and flow proposals.
 */
export const RunFlowActions = {
  flowCatalog: defineAction('runs.flowCatalog', z.object({}), FlowCatalogSchema),
  usage: defineAction('runs.usage', RunId, UsageTotalsSchema),
  usageSummary: defineAction(
    'runs.usageSummary',
    z.object({ window_hours: z.number().int().min(1).max(8760).default(24) }),
    UsageSummarySchema,
  ),
  flowState: defineAction('runs.flowState', RunId, FlowStateSchema),
  lifecycle: defineAction('runs.lifecycle', RunId, LifecycleViewSchema),
  changes: defineAction('runs.changes', RunId, RunChangesSchema),
  capabilities: defineAction('runs.capabilities', CapabilitiesParamsSchema, CapabilityResultSchema),
  proposePatch: defineAction('runs.proposePatch', RunId.extend(PatchProposeBodySchema.shape), PatchViewSchema),
  applyPatch: defineAction(
    'runs.applyPatch',
    RunId.extend({ version: z.number().int().min(1) }),
    AppliedPatchViewSchema,
  ),
  /** The tool's arguments and, set by the adapter from the caller (never by the client), who the proposal is for. */
  proposeFlow: defineAction(
    'runs.proposeFlow',
    FlowProposeSchema.extend({ principal: CallPrincipalSchema.nullable().optional() }),
    FlowProposalViewSchema,
  ),
  startVersion: defineAction('runs.startVersion', StartVersionSchema, RunViewSchema),
} as const;
