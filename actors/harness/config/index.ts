import type { HarnessContext, HarnessPart } from '../context.ts';

/** The harness's `config` part: its actions, started with the actor. */
export function createConfigPart(h: HarnessContext): HarnessPart {
  void h;
  return { actions: {} };
}
