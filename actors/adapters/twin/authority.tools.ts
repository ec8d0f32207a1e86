import { callerAuthor } from '../../../contracts/principal.ts';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { AttemptPromotionRequestSchema } from '../../../contracts/approvals.ts';
import { defineTool, ToolError, type ToolContext } from '../kit/tool.ts';
import { projectOf } from './common.ts';

/**
 * Files a pending human-authority request and refuses to decide it: no tool approves its own call, and these
 * decisions belong to a person (SPEC "What the service does" 3, TOOLS.md "human authority").
 */
async function fileRequest(
  tc: ToolContext,
  kind: string,
  projectId: string | null,
  title: string,
  request: Record<string, unknown>,
): Promise<never> {
  const r = await call(tc.ctx, HoldsActions.file, {
    kind: 'human_authority',
    tool_id: `twin.${kind}`,
    title,
    arguments: request,
    detail: { authority: kind, session_id: tc.caller.session_id ?? null, run_id: tc.caller.run_id ?? null },
    project_id: projectId,
    requested_by: callerAuthor(tc.caller),
  });
  const id = `tool:${r.id}`;
  throw new ToolError(
    `${kind} needs a person's authority and a tool cannot decide it: pending request ${id} was filed for a person to decide in the approvals queue`,
    {
      code: 'human_authority_required',
      request_id: id,
      kind,
    },
  );
}

/**
 * `attempt_promotion`, `approve_design_loop`, `approve_engineering_change`: create the pending request, never decide.
 * A person's approval takes effect in the approvals actor (actors/approvals/authority.ts).
 */
export const authorityTools = [
  defineTool({
    name: 'attempt_promotion',
    description:
      "Request promotion of a project to a maturity level. Files the request; when a person approves it, the criteria are checked (every required claim, i.e. a requirement ref of the compliance checklist or all when none are named, verified by k current evidence items or waived; no stale evidence; every gate of the run approved) and the project's maturity item gets its next revision, else the person sees the failing criteria.",
    input: AttemptPromotionRequestSchema,
    handler: (a, tc) => fileRequest(tc, 'attempt_promotion', projectOf(tc, a.projectId), `promotion to ${a.level}`, a),
  }),
  defineTool({
    name: 'approve_design_loop',
    description:
      'Ask a person to approve the winning iteration of a design loop. Files the request; when a person approves it, a loop recorded with a spec (twin.record_document design_loop) runs its next candidate.',
    input: z.object({
      design_loop_id: z.string().min(1),
      project_id: z.string().nullable().optional(),
      note: z.string().default(''),
    }),
    handler: (a, tc) =>
      fileRequest(tc, 'approve_design_loop', projectOf(tc, a.project_id), `design loop ${a.design_loop_id}`, a),
  }),
  defineTool({
    name: 'approve_engineering_change',
    description:
      "Ask a person to approve a proposed engineering change (twin.propose_change). Files the request; when a person approves it, the change is applied as the target's next revision in one commit, or refused when the target moved on.",
    input: z.object({
      change_id: z.string().min(1),
      project_id: z.string().nullable().optional(),
      note: z.string().default(''),
    }),
    handler: (a, tc) =>
      fileRequest(
        tc,
        'approve_engineering_change',
        projectOf(tc, a.project_id),
        `engineering change ${a.change_id}`,
        a,
      ),
  }),
];
