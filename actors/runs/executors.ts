import type { PhaseExecutor } from './executor.ts';

/** Deterministic phase handlers by flow and phase id. A phase without one (or whose flow names a model) uses the LLM slot. */
export type HandlerTable = Record<string, Record<string, PhaseExecutor>>;

/**
 * The LLM phase-executor slot. No model provider is part of this deployment yet, so a phase that needs one ends with an
 * `environment` failure naming what to configure: never a fake success.
 */
export const llmSlot: PhaseExecutor = async (input) => ({
  ok: false,
  kind: 'environment',
  message: `phase ${input.phase.id} needs a model (no deterministic handler${input.phase.model ? `; the flow names ${input.phase.model}` : ''}), and no model provider is configured: set SERVICE_LLM_PROVIDER and its API key`,
});

/** Picks the deterministic handler of a phase, else the LLM slot (also when the flow names a model for the phase). */
export function executorFor(table: HandlerTable): PhaseExecutor {
  return (input) => {
    const handler = input.phase.model ? undefined : table[input.flow_id]?.[input.phase.id];
    return (handler ?? llmSlot)(input);
  };
}
