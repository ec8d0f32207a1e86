import type { HandlerTable } from '../executors.ts';
import { electronicsPhase } from './hardware/electronics-phase.ts';
import { firmwarePhase } from './hardware/firmware-phase.ts';
import { architecturePhase } from './hardware/architecture.ts';
import { conceptSelectionPhase } from './hardware/concept-selection.ts';
import { hardwareDesignPhase } from './hardware/design.ts';
import { manufacturingPhase } from './hardware/manufacturing-phase.ts';
import { hardwareFeasibilityPhase, hardwareRequirementsPhase } from './hardware/requirements.ts';
import { hardwareVvPhase } from './hardware/vv.ts';
import { feasibilityPhase, intentPhase, needsPhase, requirementsPhase } from './mech/early-phases.ts';
import { designPhase, simulationPhase } from './mech/late-phases.ts';

const early = {
  intent: intentPhase,
  needs: needsPhase,
  requirements: requirementsPhase,
  feasibility: feasibilityPhase,
};

/**
 * The deterministic phase handlers. mech_v1 is fully deterministic; hardware_v1 shares the early phases and has its own
 * architecture and concept selection (handlers/hardware); its other phases use the LLM slot (an environment failure
 * until a model provider is configured).
 */
export const DEFAULT_HANDLERS: HandlerTable = {
  mech_v1: { ...early, design: designPhase, simulation: simulationPhase },
  hardware_v1: {
    ...early,
    requirements: hardwareRequirementsPhase,
    feasibility: hardwareFeasibilityPhase,
    architecture: architecturePhase,
    concept_selection: conceptSelectionPhase,
    design: hardwareDesignPhase,
    electronics: electronicsPhase,
    manufacturing: manufacturingPhase,
    firmware: firmwarePhase,
    simulation: hardwareVvPhase,
  },
};
