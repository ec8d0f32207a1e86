import type { PhaseExecutor } from './executor.ts';

/** Deterministic phase handlers by flow and phase id. A phase without one (or whose flow names a model) uses the LLM slot. */
export type HandlerTable = Record<string, Record<string, PhaseExecutor>>;

/**
 * The LLM phase-executor slot. Model-driven phases are not wired to the harness's agent loop (`harness.turn`) yet, so
 * a phase that needs a model ends with an `environment` failure saying so: never a fake success.
 */
export const llmSlot: PhaseExecutor = async (input) => ({
  ok: false,
  kind: 'environment',
  message: `phase ${input.phase.id} needs a model (no deterministic handler${input.phase.model ? `; the flow names ${input.phase.model}` : ''}), and model-driven phases are not run by this version of the service (the harness serves model calls, but no phase drives one yet)`,
});

/** Picks the deterministic handler of a phase, else the LLM slot (also when the flow names a model for the phase). */
export function executorFor(table: HandlerTable): PhaseExecutor {
  return (input) => {
    const handler = input.phase.model ? undefined : table[input.flow_id]?.[input.phase.id];
    return (handler ?? llmSlot)(input);
  };
}
