import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { RunFlowActions as F } from '../../../contracts/actions/design-flows.actions.ts';
import { FlowsActions } from '../../../contracts/actions/flows.actions.ts';
import { OpenGateViewSchema, RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import {
  CapabilityResultSchema,
  CompletionCheckSchema,
  FlowCatalogSchema,
  FlowStateSchema,
  LifecycleViewSchema,
} from '../../../contracts/design-flows.ts';
import { CompiledIntentSchema, CompileIntentRequestSchema } from '../../../contracts/intent.ts';
import { defineTool, InvalidArgumentsError } from '../kit/tool.ts';
import { flowCall } from './common.ts';

const RunArg = z.object({ run_id: z.string().min(1).describe('the design-flow run id (run_...)') });

/** The read-only flow tools: the same actor answers in-process and remote callers (SPEC Twin/CAD rule 12). */
export const readTools = [
  defineTool({
    name: 'list',
    description:
      "List the design flows a run can start with (phases, dependencies, gates) and, with project_id, that project's runs.",
    input: z.object({ project_id: z.string().min(1).optional(), limit: z.number().int().min(1).max(100).default(20) }),
    output: FlowCatalogSchema.extend({
      runs: z.array(
        z.object({
          id: z.string(),
          design_flow: z.string(),
          status: z.string(),
          goal: z.string(),
          gate: z.string().nullable(),
          created_at: z.string(),
        }),
      ),
    }),
    handler: async (a, tc) => {
      const catalog = await flowCall(call(tc.ctx, F.flowCatalog, {}));
      const project = a.project_id ?? tc.caller.project_id;
      const runs = project ? (await flowCall(call(tc.ctx, R.list, { project_id: project, limit: a.limit }))).runs : [];
      return {
        ...catalog,
        runs: runs.map((r) => ({
          id: r.id,
          design_flow: r.design_flow,
          status: r.status,
          goal: r.goal,
          gate: r.gate?.phase ?? null,
          created_at: r.created_at,
        })),
      };
    },
  }),
  defineTool({
    name: 'status',
    description:
      'Flow state of a run: phase statuses, mode, running and skipped phases, usage, and the open gate with its allowed decisions.',
    input: RunArg,
    output: FlowStateSchema.extend({ open_gate: OpenGateViewSchema.nullable() }),
    handler: async (a, tc) => {
      const [state, run] = await Promise.all([
        flowCall(call(tc.ctx, F.flowState, a)),
        flowCall(call(tc.ctx, R.get, a)),
      ]);
      return { ...state, open_gate: run.gate };
    },
  }),
  defineTool({
    name: 'compile_intent',
    description:
      'Compile a design request into the intent model: goal, constraints by category, success criteria, assumptions, unknowns (blocking or not), requested deliverables, extracted parameters.',
    input: CompileIntentRequestSchema,
    output: CompiledIntentSchema,
    handler: (a, tc) => flowCall(call(tc.ctx, FlowsActions.compileIntent, a)),
  }),
  defineTool({
    name: 'capabilities',
    description:
      'Capability report of a design flow (flow) or a frozen flow version (version_id): per phase, whether it can run now (runnable; handler deterministic, model or none; missing: what stops it, e.g. no deterministic handler or a tool its adapter lists unavailable) and each required deliverable FULL/PARTIAL/UNAVAILABLE/UNKNOWN from the registered tools; READY, READY_WITH_WARNINGS or BLOCKED.',
    input: z.object({
      flow: z.string().min(1).optional(),
      version_id: z.string().min(1).optional(),
      profile: z.string().min(1).optional(),
    }),
    output: CapabilityResultSchema,
    handler: (a, tc) => {
      if (!a.flow && !a.version_id) throw new InvalidArgumentsError('give flow (hardware_v1, mech_v1) or version_id');
      return flowCall(call(tc.ctx, F.capabilities, a));
    },
  }),
  defineTool({
    name: 'lifecycle',
    description:
      'Lifecycle view of a run: per phase execution status, eligibility, validity (STALE, POTENTIALLY_INVALID) and objective status; requirements against current evidence; the completion verdict, limits and the next step.',
    input: RunArg,
    output: LifecycleViewSchema,
    handler: (a, tc) => flowCall(call(tc.ctx, F.lifecycle, a)),
  }),
  defineTool({
    name: 'verify_completion',
    description:
      'Whether a run is COMPLETED_VERIFIED: the completion verdict with each requirement (pass, fail, no_data), stale outputs, warnings, limits and the next step. No data never passes.',
    input: RunArg,
    output: CompletionCheckSchema,
    handler: async (a, tc) => {
      const v = await flowCall(call(tc.ctx, F.lifecycle, a));
      return {
        run_id: v.run_id,
        verdict: v.verdict,
        verified: v.verdict === 'COMPLETED_VERIFIED',
        requirements: v.requirements,
        stale: v.stale,
        warnings: v.warnings,
        limits: v.limits,
        nextStep: v.nextStep,
      };
    },
  }),
];
