import { freezeFlow } from '../../actors/runs/flows/index.ts';
import { apply, emptyRun, type RunEvent } from '../../actors/runs/run.events.ts';
import { decide, type RunCommand } from '../../actors/runs/run.machine.ts';
import { DEFAULT_LIMITS, type RunState } from '../../actors/runs/run.types.ts';
import type { FlowDef } from '../../contracts/flow-defs.ts';

/** The identity on the gate decisions the machine tests send: a person at the local dashboard. */
export const who = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};

/** A fixed clock, unless `now` gives one per command. */
const FIXED_NOW = '2026-11-22T00:00:00.000Z';

/**
 * Drives the pure run machine like the shell does: creates run r1 of `def` (frozen with `facts`, carrying `patches`),
 * then applies each decision's events to the state and keeps the event log.
 */
export function machineRun(
  def: FlowDef,
  opts: { facts?: Record<string, unknown>; patches?: string[]; now?: () => string } = {},
) {
  let state: RunState = emptyRun();
  const log: RunEvent[] = [];
  const send = (c: RunCommand) => {
    const d = decide(state, c, { now: opts.now?.() ?? FIXED_NOW, limits: DEFAULT_LIMITS });
    for (const e of d.events) {
      state = apply(state, e);
      log.push(e);
    }
    return d;
  };
  const first = send({
    type: 'create',
    run_id: 'r1',
    project_id: 'p',
    flow: freezeFlow(def, opts.facts ?? {}),
    patches: opts.patches ?? [],
  });
  return {
    first,
    send,
    log,
    get state() {
      return state;
    },
  };
}
