import type { FlowDef } from '../../../contracts/flow-defs.ts';
import { feasibilityPhase, intentPhase, needsPhase } from './common.ts';

/** `mech_v1` 1.0.0: six gated phases from intent to a simulated, verdicted mechanical part. */
export const MECH_V1: FlowDef = {
  id: 'mech_v1',
  version: '1.0.0',
  name: 'Mechanical part',
  phases: [
    intentPhase,
    needsPhase,
    {
      id: 'requirements',
      title: 'Requirements',
      objective:
        'Quantified requirements: load magnitude and location, material class, safety-factor target, mass and envelope, each with a verification method.',
      required_deliverables: ['design_decision', 'constraint_set'],
      expected_artifacts: ['constraint_set', 'design_decision'],
      enforce_deliverables: true,
      disciplines: [],
      gate: {
        name: 'Requirements sign-off',
        gate_id: 'G2R',
        criteria: ['every requirement is quantified and verifiable'],
        enforce_constraints: false,
      },
    },
    feasibilityPhase,
    {
      id: 'design',
      title: 'Mechanical design',
      objective:
        'Design the part the goal describes with the CAD tools, name it, and commit its geometry as a cad_model.',
      required_deliverables: ['cad_model'],
      expected_artifacts: ['cad_model', 'design_decision'],
      enforce_deliverables: true,
      disciplines: ['mechanical'],
      gate: {
        name: 'Mechanical design review',
        gate_id: 'G6',
        criteria: ['geometry committed', 'material and dimensions stated'],
        enforce_constraints: false,
      },
    },
    {
      id: 'simulation',
      title: 'Verification and validation',
      objective:
        'Mesh the committed geometry, run the finite-element solver under the load case, record the result with its field, and give the verdict against the constraints. Never present a hand calculation as analysis.',
      required_deliverables: ['simulation_result', 'design_decision'],
      expected_artifacts: ['simulation_result', 'design_decision'],
      enforce_deliverables: true,
      disciplines: ['simulation'],
      gate: {
        name: 'V&V sign-off',
        gate_id: 'G7',
        criteria: ['every constraint compared with a current valid result'],
        enforce_constraints: true,
      },
    },
  ],
};
