import type { Context } from 'moleculer';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import type { HandlerTable } from './executors.ts';
import type { RunHost } from './run-host.ts';
import type { RunStore } from './run.store.ts';
import type { RunLimits, RunState } from './run.types.ts';

/** What the design-flow actions need from the runs actor that serves them (read when a call arrives, after `started`). */
export interface DesignFlowDeps {
  infra: Infra;
  limits: RunLimits;
  /** The executor's deterministic handler table: capability reports name the phases without one. */
  handlers: HandlerTable;
  /** Patch markers recorded on runs created now. */
  activePatches: string[];
  host(): RunHost;
  store(): RunStore;
  /** Sends a command to the node holding the run; undefined = handle it here. */
  forward(ctx: Context, action: string, runId: string): Promise<unknown>;
}

/** The state of a run: the held copy, else the stored projection; NOT_FOUND for an unknown run. */
export async function stateOf(d: DesignFlowDeps, runId: string): Promise<RunState> {
  const held = d.host().peek(runId);
  if (held) return held;
  const row = await d.store().get(runId);
  if (!row) throw ActorError.notFound('run', runId);
  return row.state;
}
