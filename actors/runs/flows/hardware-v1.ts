import type { FlowDef, PhaseDef } from '../../../contracts/flow-defs.ts';
import { feasibilityPhase, intentPhase, needsPhase } from './common.ts';

const decisionPhase = (
  id: string,
  title: string,
  objective: string,
  gate: PhaseDef['gate'],
  extra: Partial<PhaseDef> = {},
): PhaseDef => ({
  id,
  title,
  objective,
  required_deliverables: ['design_decision'],
  expected_artifacts: ['design_decision'],
  enforce_deliverables: true,
  disciplines: [],
  gate,
  ...extra,
});

/** `hardware_v1` 1.0.0: eleven gated phases, linear, from intent to manufacturing readiness. */
export const HARDWARE_V1: FlowDef = {
  id: 'hardware_v1',
  version: '1.0.0',
  name: 'Hardware product',
  phases: [
    intentPhase,
    needsPhase,
    {
      id: 'requirements',
      title: 'Requirements',
      objective:
        'Functional requirements, environment, and quantified constraints (mass, envelope, degrees of freedom, power, runtime, cost).',
      required_deliverables: ['design_decision', 'constraint_set'],
      expected_artifacts: ['prd', 'constraint_set', 'design_decision'],
      enforce_deliverables: true,
      disciplines: [],
      gate: {
        name: 'Requirements sign-off',
        gate_id: 'G2R',
        criteria: ['quantified constraints recorded'],
        enforce_constraints: false,
      },
    },
    feasibilityPhase,
    decisionPhase(
      'architecture',
      'Architecture',
      'Subsystems, interfaces and budgets; derived requirements recorded as constraint sets linked to their parents.',
      {
        name: 'Architecture',
        gate_id: 'G4',
        criteria: ['interfaces and budgets defined'],
        enforce_constraints: false,
      },
    ),
    decisionPhase(
      'concept_selection',
      'Concept selection',
      'Two or three concepts, a trade study, and the decision with its alternatives.',
      {
        name: 'Concept Selection',
        gate_id: 'G5',
        criteria: ['trade study recorded'],
        enforce_constraints: false,
      },
    ),
    {
      id: 'design',
      title: 'Mechanical design',
      objective:
        'Author the CAD, name the parts, check material against the safety factor, and persist the geometry with commit_geometry.',
      required_deliverables: ['cad_model'],
      expected_artifacts: ['cad_model', 'design_decision'],
      enforce_deliverables: true,
      disciplines: ['mechanical'],
      gate: {
        name: 'Mechanical design review',
        gate_id: 'G6',
        criteria: ['geometry committed'],
        enforce_constraints: false,
      },
    },
    decisionPhase(
      'electronics',
      'Electronics',
      'Close the power budget, choose the topology and key parts, run ERC where possible.',
      {
        name: 'Electronics review',
        gate_id: 'G6E',
        criteria: ['power budget closed'],
        enforce_constraints: false,
      },
      { expected_artifacts: ['schematic', 'pcb_layout', 'bom', 'design_decision'], disciplines: ['electronics'] },
    ),
    decisionPhase(
      'firmware',
      'Firmware',
      'Control loop, tasks, pin map and drivers.',
      {
        name: 'Firmware review',
        gate_id: 'G6F',
        criteria: ['pin map recorded'],
        enforce_constraints: false,
      },
      { expected_artifacts: ['firmware_source', 'pinmap', 'design_decision'] },
    ),
    decisionPhase(
      'simulation',
      'Verification and validation',
      'FEA on the load-bearing part, ERC/DRC and thermal checks, pass or fail per key requirement.',
      {
        name: 'V&V sign-off',
        gate_id: 'G7',
        criteria: ['every key requirement has a verdict'],
        enforce_constraints: true,
      },
      { expected_artifacts: ['simulation_result', 'test_result', 'design_decision'], disciplines: ['simulation'] },
    ),
    decisionPhase(
      'manufacturing',
      'Manufacturing readiness',
      'Costed BOM, fabrication outputs and the bring-up plan.',
      {
        name: 'Manufacturing readiness / Release',
        gate_id: 'G8',
        criteria: ['waivers approved', 'release approved'],
        enforce_constraints: true,
      },
      {
        expected_artifacts: ['bom', 'manufacturing_file', 'test_plan', 'design_decision'],
        disciplines: ['electronics'],
      },
    ),
  ],
};
