import type { PhaseDef } from '../../../contracts/flow-defs.ts';

/** Phases both flows share (intent and needs are the same in hardware_v1 and mech_v1). */
export const intentPhase: PhaseDef = {
  id: 'intent',
  title: 'Intent',
  objective:
    'Record one intent entity: purpose, stakeholders, context, boundary and the outcome that would count as success.',
  required_deliverables: ['intent'],
  expected_artifacts: ['intent'],
  enforce_deliverables: true,
  disciplines: [],
  gate: {
    name: 'Intent sign-off',
    gate_id: 'G1',
    criteria: ['the intent states purpose, context and success'],
    enforce_constraints: false,
  },
};

export const needsPhase: PhaseDef = {
  id: 'needs',
  title: 'Stakeholder needs',
  objective: 'Record the stakeholder needs, each linked to the intent that motivates it.',
  required_deliverables: ['stakeholder_need'],
  expected_artifacts: ['stakeholder_need'],
  enforce_deliverables: true,
  disciplines: [],
  gate: {
    name: 'Needs sign-off',
    gate_id: 'G2',
    criteria: ['every need traces to the intent'],
    enforce_constraints: false,
  },
};

export const feasibilityPhase: PhaseDef = {
  id: 'feasibility',
  title: 'Preliminary feasibility',
  objective:
    'First-order estimates (mass, cost, power, structure, thermal) labelled as hand calculations, and the main risks with an owner and a mitigation.',
  required_deliverables: ['design_decision'],
  expected_artifacts: ['design_decision'],
  enforce_deliverables: true,
  disciplines: [],
  gate: {
    name: 'Preliminary Feasibility',
    gate_id: 'G3',
    criteria: ['estimates are labelled as hand calculations', 'risks have owners'],
    enforce_constraints: false,
  },
};
