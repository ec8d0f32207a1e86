import type { CallingOptions } from 'moleculer';
import { call } from '../../../brokers/actions.ts';
import { ActorError, toActorErrorShape } from '../../../brokers/errors.ts';
import { InvokeParamsSchema } from '../../../contracts/actions/adapters.actions.ts';
import { ProjectsActions } from '../../../contracts/actions/projects.actions.ts';
import type { ActionDef, ActionInput, ActionResult } from '../../../contracts/define.ts';
import { ToolError, ToolUnavailableError, type ToolContext } from '../kit/tool.ts';

/** Refusals an actor answers with that a tool reports as "the tool ran and refused". */
const REFUSALS = new Set(['NOT_FOUND', 'CONFLICT', 'VALIDATION_FAILED']);

/** The invoke's own deadline: calls to actors made for the tool never outlive it. */
function deadlineOf(tc: ToolContext): number | undefined {
  const p = InvokeParamsSchema.pick({ timeout_ms: true }).safeParse(tc.ctx.params);
  return p.success ? p.data.timeout_ms : undefined;
}

/**
 * Calls an actor on behalf of a tool (STYLE R11, through the invoke's context). A refusal (unknown id, completed
 * session, bad field) becomes a ToolError carrying the actor's message, which names the entity; an actor that is
 * not on the bus makes the tool unavailable.
 */
export async function actorCall<A extends ActionDef<any, any>>(tc: ToolContext, def: A, params: ActionInput<A>, opts: CallingOptions = {}): Promise<ActionResult<A>> {
  try {
    const timeout = deadlineOf(tc);
    return await call(tc.ctx, def, params, { ...(timeout ? { timeout } : {}), ...opts });
  } catch (err) {
    if (err instanceof ActorError && REFUSALS.has(err.type)) {
      throw new ToolError(err.message, (err.data as Record<string, unknown> | undefined) ?? err.message);
    }
    const shape = toActorErrorShape(err);
    if (shape.code === 'SERVICE_UNAVAILABLE') throw new ToolUnavailableError(shape.message, shape.data ?? shape.message);
    throw err;
  }
}

/** Refuses a project id that names no project (a session or source filed under a typo would never be found). */
export async function requireProject(tc: ToolContext, projectId: string): Promise<void> {
  await actorCall(tc, ProjectsActions.get, { id: projectId });
}
