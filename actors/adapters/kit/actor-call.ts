import type { CallingOptions } from 'moleculer';
import { call } from '../../../brokers/actions.ts';
import { ActorError, toActorErrorShape } from '../../../brokers/errors.ts';
import { InvokeParamsSchema } from '../../../contracts/actions/adapters.actions.ts';
import { ProjectsActions } from '../../../contracts/actions/projects.actions.ts';
import type { ActionDef, ActionInput, ActionResult } from '../../../contracts/define.ts';
import { ToolError, ToolUnavailableError, type ToolContext } from './tool.ts';

/** Refusals an actor answers with that a tool reports as "the tool ran and refused". */
const REFUSALS = new Set(['NOT_FOUND', 'CONFLICT', 'VALIDATION_FAILED', 'STALE_REVISION', 'PATCH_CONFLICT']);

/**
 * Awaits an actor call made for a tool: a refusal (unknown id, stale revision, bad field) becomes a ToolError carrying
 * the actor's message, which names the entity, and its code; an actor that is not on the bus makes the tool unavailable.
 */
export async function refusalsAsToolErrors<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ActorError && REFUSALS.has(err.type)) {
      throw new ToolError(err.message, {
        code: err.type,
        ...((err.data as Record<string, unknown> | undefined) ?? {}),
      });
    }
    const shape = toActorErrorShape(err);
    if (shape.code === 'SERVICE_UNAVAILABLE')
      throw new ToolUnavailableError(shape.message, shape.data ?? shape.message);
    throw err;
  }
}

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
export function actorCall<A extends ActionDef<any, any>>(
  tc: ToolContext,
  def: A,
  params: ActionInput<A>,
  opts: CallingOptions = {},
): Promise<ActionResult<A>> {
  const timeout = deadlineOf(tc);
  return refusalsAsToolErrors(call(tc.ctx, def, params, { ...(timeout ? { timeout } : {}), ...opts }));
}

/** Refuses a project id that names no project (a session or source filed under a typo would never be found). */
export async function requireProject(tc: ToolContext, projectId: string): Promise<void> {
  await actorCall(tc, ProjectsActions.get, { id: projectId });
}
