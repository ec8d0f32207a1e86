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
 * The deterministic phase handlers: every phase of mech_v1 and hardware_v1 has one (hardware_v1 shares intent and needs
 * with mech_v1 and has its own from requirements on, handlers/hardware). A phase the table misses, or whose flow names a
 * model, runs on the phase brain when a route exists (executors.ts).
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
