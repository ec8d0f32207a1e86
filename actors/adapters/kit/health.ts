import type { ActionSchema, Context } from 'moleculer';
import type { z } from 'zod';
import { action } from '../../../brokers/actions.ts';
import type { ActionDef } from '../../../contracts/define.ts';
import type { ComponentHealth, ComponentHealthSchema } from '../../../contracts/health.ts';

/** A `<actor>.health` action (SPEC "Component health"): no params, answers one ComponentHealth. */
export type ComponentHealthAction = ActionDef<z.ZodObject<Record<string, never>>, typeof ComponentHealthSchema>;

/** What a probe found: nothing (healthy), or a status with the reason. A probe that throws is unhealthy. */
export type ProbeFinding = void | { status: ComponentHealth['status']; message: string | null };

/**
 * Times one probe of an actor's dependency (its store answering, or the actor it reads through) and reports it as the
 * SPEC's `{name, status, latency_ms, message}`: healthy with message null, the probe's own finding, or unhealthy with
 * the error's words (`describeError` may say which dependency failed). Never throws.
 */
export async function probeHealth(
  name: string,
  probe: () => Promise<ProbeFinding>,
  describeError: (err: unknown) => string = String,
): Promise<ComponentHealth> {
  const started = performance.now();
  try {
    const found = await probe();
    const latency_ms = performance.now() - started;
    return found ? { name, latency_ms, ...found } : { name, status: 'healthy', latency_ms, message: null };
  } catch (err) {
    return { name, status: 'unhealthy', latency_ms: performance.now() - started, message: describeError(err) };
  }
}

/**
 * The `health` action every stateful actor carries (projects, twin, sessions, knowledge, memory), written once:
 * `health: healthAction(ProjectsActions.health, 'projects', () => store.ping())`.
 */
export function healthAction(
  def: ComponentHealthAction,
  name: string,
  probe: (ctx: Context) => Promise<ProbeFinding>,
  describeError?: (err: unknown) => string,
): ActionSchema {
  return action(def, (_params, ctx) => probeHealth(name, () => probe(ctx), describeError));
}
