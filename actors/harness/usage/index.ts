import type { HarnessContext, HarnessPart } from '../context.ts';

/** The harness's `usage` part: its actions, started with the actor. */
export function createUsagePart(h: HarnessContext): HarnessPart {
  void h;
  return { actions: {} };
}
