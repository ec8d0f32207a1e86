import type { HarnessContext, HarnessPart } from '../context.ts';

/** The harness's `calls` part: its actions, started with the actor. */
export function createCallsPart(h: HarnessContext): HarnessPart {
  void h;
  return { actions: {} };
}
