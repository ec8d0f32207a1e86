import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { RunFlowActions as F } from '../../../contracts/actions/design-flows.actions.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { ReviseKeySchema } from '../../../contracts/actions/twin-scope.actions.ts';
import { FlowOperationSchema, FlowProposeSchema } from '../../../contracts/design-flows.ts';
import { DesignFlowSchema } from '../../../contracts/flows.ts';
import { startedByOfCaller } from './started-by.ts';
import { defineTool, InvalidArgumentsError } from '../kit/tool.ts';
import { flowCall } from './common.ts';

/**
 * The writing flow tools. `propose` and `patch` (action propose) are held downstream: they freeze a new flow version
 * whose approval (kind flow_version / flow_patch) a person gives; `start_run` on a version and `patch` apply are
 * refused until then.
 */
export const writeTools = [
  defineTool({
    name: 'propose',
    description:
      "Propose a tailored flow: a built-in flow (base_flow) changed by operations (add_phase, remove_phase, modify_phase) with facts for its conditions, or by a request alone (the flow_generator model proposes the operations when routed; the note says how). Saves a frozen version held for a person's approval; runs start on it once approved.",
    input: FlowProposeSchema,
    handler: (a, tc) => {
      // The flow_generator call's ledger row names who asked (decision 0113): the caller's principal, never an argument.
      const by = startedByOfCaller(tc.caller).started_by;
      const principal = by && { subject: by.subject, client_id: by.client_id };
      return flowCall(call(tc.ctx, F.proposeFlow, { ...a, principal }));
    },
  }),
  defineTool({
    name: 'start_run',
    description:
      "Start a design-flow run: design_flow (hardware_v1 or mech_v1) or an approved flow version (version_id), with the goal in the requester's words; revise lists other runs' item keys this run may revise (each run's items are its own otherwise). Answers the run view.",
    input: z.object({
      design_flow: DesignFlowSchema.optional(),
      version_id: z.string().min(1).optional(),
      goal: z.string().min(1).max(20_000),
      project_id: z.string().min(1).optional(),
      context: z.record(z.string(), z.unknown()).default({}),
      facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
      /** Other runs' items this run may revise (decision 0100); each must be an item of the project. */
      revise: z.array(ReviseKeySchema).max(50).default([]),
    }),
    handler: (a, tc) => {
      const project_id = a.project_id ?? tc.caller.project_id ?? null;
      if (a.design_flow && a.version_id) throw new InvalidArgumentsError('give design_flow or version_id, not both');
      if (a.version_id && a.revise.length)
        throw new InvalidArgumentsError('revise is taken with design_flow only: a flow version starts without it');
      if (a.version_id)
        return flowCall(
          call(tc.ctx, F.startVersion, {
            version_id: a.version_id,
            project_id,
            goal: a.goal,
            context: a.context,
            ...startedByOfCaller(tc.caller),
          }),
        );
      if (!a.design_flow)
        throw new InvalidArgumentsError(`give design_flow (${DesignFlowSchema.options.join(', ')}) or version_id`);
      return flowCall(
        call(tc.ctx, R.start, {
          design_flow: a.design_flow,
          project_id,
          goal: a.goal,
          context: a.context,
          facts: a.facts,
          revise: a.revise,
          ...startedByOfCaller(tc.caller),
        }),
      );
    },
  }),
  defineTool({
    name: 'patch',
    description:
      'Change a running flow. action propose: operations (add_phase, remove_phase, modify_phase) become a new frozen version held for a person (kind flow_patch). action apply: applies patch `version` once approved; refused as stale when the run moved past the patched phases.',
    input: z.object({
      action: z.enum(['propose', 'apply']),
      run_id: z.string().min(1),
      operations: z.array(FlowOperationSchema).max(50).optional(),
      reason: z.string().max(2000).default(''),
      base_hash: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
      version: z.number().int().min(1).optional(),
    }),
    handler: (a, tc) => {
      if (a.action === 'apply') {
        if (a.version === undefined)
          throw new InvalidArgumentsError('action apply needs version (the patch number propose answered)');
        return flowCall(call(tc.ctx, F.applyPatch, { run_id: a.run_id, version: a.version }));
      }
      if (!a.operations?.length) throw new InvalidArgumentsError('action propose needs operations');
      return flowCall(
        call(tc.ctx, F.proposePatch, {
          run_id: a.run_id,
          operations: a.operations,
          reason: a.reason,
          base_hash: a.base_hash,
        }),
      );
    },
  }),
];
