import type { PhaseExecutor } from '../../executor.ts';
import { intentOf } from '../mech/early-phases.ts';
import { recordRequirements } from '../mech/requirements-record.ts';
import { phase, use } from '../tools.ts';
import { bracketChoice } from './bracket-choice.ts';
import { hardwareFacts } from './request-facts.ts';
import { CHOICES, USB } from './reference-data.ts';

const f = (n: number, d = 1) => n.toFixed(d);
const r1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The hardware requirements of a request (pure): the bracket's stress under the stated mass and shock (verified by
 * analysis, so the V&V gate compares it with the FEA result), the parts cost against the stated budget, the supply
 * current against one USB unit load, and the stated logic voltage. The enclosure envelope is stated, not designed, so
 * it is a fact of the request here and not a requirement on the bracket geometry.
 */
export function hardwareRequirements(intentArg: Parameters<typeof bracketChoice>[0]) {
  const { loadCase: k, safetyFactor, assumedSafetyFactor } = bracketChoice(intentArg);
  const m = intentArg.parameters.material!;
  const facts = hardwareFacts(intentArg.immediate_request);
  const allowable = r1(m.yield_mpa / safetyFactor);
  const budget = intentArg.parameters.budget;
  const constraints = [
    {
      id: 'REQ-STRESS',
      metric: 'max_von_mises_mpa',
      operator: '<=',
      limit: allowable,
      unit: 'MPa',
      severity: 'error',
      verification_method: 'analysis',
      message: `bracket carrying ${k.mass_kg} kg at (1 + ${CHOICES.shockAmplification.value} x ${k.shock_g}) g: yield ${m.yield_mpa} MPa / safety factor ${safetyFactor}${assumedSafetyFactor ? ' (assumed, none stated)' : ''}`,
    },
    ...(budget
      ? [
          {
            id: 'REQ-COST',
            metric: `parts_cost_${budget.currency.toLowerCase()}`,
            operator: '<=',
            limit: budget.amount,
            unit: budget.currency,
            severity: 'error',
            verification_method: 'inspection',
            message: 'stated parts cost budget',
          },
        ]
      : []),
    ...(facts.power_source === 'usb'
      ? [
          {
            id: 'REQ-USB-CURRENT',
            metric: 'usb_current_ma',
            operator: '<=',
            limit: USB.unitLoad.value,
            unit: 'mA',
            severity: 'error',
            verification_method: 'analysis',
            message: USB.unitLoad.source,
          },
        ]
      : []),
    ...(facts.logic_v !== null
      ? [
          {
            id: 'REQ-LOGIC-V',
            metric: 'logic_rail_v',
            operator: '==',
            limit: facts.logic_v,
            unit: 'V',
            severity: 'error',
            verification_method: 'inspection',
            message: 'stated logic supply',
          },
        ]
      : []),
  ];
  return { constraints, allowable, loadCase: k, safetyFactor };
}

/**
 * requirements (hardware_v1): the constraint set of hardwareRequirements, the prd prose and the baseline decision.
 * A request missing the bracket's inputs stops as a data failure naming them (bracketChoice).
 */
export const hardwareRequirementsPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const { constraints, allowable, loadCase: k } = hardwareRequirements(intent);
    return recordRequirements(input, intent, {
      constraints,
      statement: `An enclosure of ${k.mass_kg} kg (${k.envelope_mm.join(' x ')} mm) held ${k.standoff_mm} mm off the wall by a bracket, under a ${k.shock_g} g shock.`,
      decision: `Verify the bracket stress by finite-element analysis against ${allowable} MPa; cost by inspection of the BOM; supply current by the power budget; the logic rail by inspection of the schematic`,
      rationale: constraints.map((c) => `${c.id}: ${c.message}`).join('; '),
      summary: `allowable bracket stress ${allowable} MPa`,
    });
  });

/** feasibility (hardware_v1): the stated bracket's cantilever hand calculation, labelled as such, and the risks. */
export const hardwareFeasibilityPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const { ratings, remedy } = bracketChoice(intent);
    const a = ratings[0]!;
    // Over its allowable the hand calculation is an error finding of the gate, naming the remedy (decision 0060).
    const findings = a.feasible
      ? []
      : [
          {
            kind: 'analysis' as const,
            severity: 'error',
            overridable: true,
            message: `HAND CALCULATION: root bending stress ${f(a.stress_mpa)} MPa of the stated bracket (${a.label}) exceeds the allowable ${f(a.allowable_mpa)} MPa; remedy: ${remedy ? `the ${remedy.label} bracket (${f(remedy.stress_mpa)} MPa by the same calculation)` : 'no bracket concept of this material passes the hand calculation; change the material or the standoff'}. Approve with an override_reason only to go on regardless`,
          },
        ];
    const d = await use(input, 'twin.record_decision', {
      title: 'Feasibility (HAND CALCULATION, not analysis)',
      decision: `HAND CALCULATION, first-order cantilever estimate of the stated bracket (${a.label}), not an analysis: root bending stress ${f(a.stress_mpa)} MPa, deflection ${f(a.deflection_mm, 3)} mm under ${f(a.load_n, 2)} N at ${a.lever_mm} mm, against an allowable of ${f(a.allowable_mpa)} MPa — ${a.feasible ? 'looks feasible' : 'likely to exceed the allowable'}; the finite-element analysis at V&V decides.`,
      rationale: `sigma = 6 P L / (b h^2) with P = mass x (1 + ${CHOICES.shockAmplification.value} x shock) x g (${CHOICES.shockAmplification.source}), L = standoff + depth / 2, b = ${a.width_mm} mm, h = ${a.thickness_mm} mm`,
      alternatives: [
        'Risk (owner: design): stress concentration at the wall fixing; mitigation: fillet or gusset at the root',
        'Risk (owner: electronics): USB unit-load budget; mitigation: keep the sensor heater off',
      ],
    });
    return {
      summary: `hand calculation: ${f(a.stress_mpa)} MPa vs ${f(a.allowable_mpa)} MPa allowable`,
      deliverables: [{ type: 'design_decision', node_id: d.node_id }],
      findings,
    };
  });
