import { call } from '../../../../brokers/actions.ts';
import { FlowsActions } from '../../../../contracts/actions/flows.actions.ts';
import type { CompiledIntent } from '../../../../contracts/intent.ts';
import type { PhaseExecutor, PhaseInput } from '../../executor.ts';
import { phase, PhaseStop, priorOf, use } from '../tools.ts';
import { cantilever, cantileverRemedy } from './hand-calc.ts';
import { recordRequirements } from './requirements-record.ts';

/**
 * The intent of the run's request, compiled by the flows actor (the compiler is deterministic, so every phase reads
 * the same model). A request without a goal is a data failure.
 */
export async function intentOf(input: PhaseInput): Promise<CompiledIntent> {
  const goal = typeof input.request.goal === 'string' ? input.request.goal : '';
  if (!goal.trim()) throw new PhaseStop('data', 'the run request states no goal to compile into an intent');
  return call(input.bus, FlowsActions.compileIntent, {
    request: goal,
    context: (input.request.context as Record<string, unknown>) ?? {},
  });
}

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();

/** intent: records the compiled intent; blocking unknowns stop the phase as a data failure naming them. */
export const intentPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const w = await use(input, 'twin.record_engineering_entity', {
      entity_type: 'intent',
      name: `Intent: ${intent.goal_object}`,
      statement: `${intent.immediate_request} — objective: ${intent.underlying_objective}`,
      properties: { intent },
    });
    const blocking = intent.unknowns.filter((u) => u.blocking);
    if (blocking.length)
      throw new PhaseStop('data', `the request leaves blocking unknowns: ${blocking.map((u) => u.question).join(' ')}`);
    return {
      summary: `intent recorded as ${w.item_ref}: ${intent.goal_object}`,
      deliverables: [{ type: 'intent', node_id: w.node_id, ref: w.item_ref }],
    };
  });

/** needs: one stakeholder need per load, the envelope and the material, each linked to the intent. */
export const needsPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const p = intent.parameters;
    const parents = priorOf(input, 'intent')
      .map((d) => d.ref!)
      .filter(Boolean)
      .slice(-1);
    const needs = [
      ...p.loads.map(
        (l) =>
          `Carry ${l.magnitude_n} N at the ${l.location} without yielding${p.safety_factor ? `, with a safety factor of ${p.safety_factor}` : ''}`,
      ),
      ...(p.dimensions_mm ? [`Fit within ${p.dimensions_mm.join(' x ')} mm`] : []),
      ...(p.material ? [`Be made of ${p.material.name}`] : []),
    ];
    const deliverables = [];
    for (const [i, statement] of needs.entries()) {
      const w = await use(input, 'twin.record_engineering_entity', {
        entity_type: 'stakeholder_need',
        name: `Need ${i + 1}: ${statement.slice(0, 80)}`,
        statement,
        parent_refs: parents,
      });
      deliverables.push({ type: 'stakeholder_need', node_id: w.node_id, ref: w.item_ref });
    }
    return { summary: `${needs.length} stakeholder needs recorded`, deliverables };
  });

/** requirements: a constraint set with quantified limits and verification methods, the prd prose, and the decision. */
export const requirementsPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const p = intent.parameters;
    if (!p.material || !p.dimensions_mm)
      throw new PhaseStop('data', 'requirements need the material and the envelope, which the request does not state');
    const sf = p.safety_factor ?? 1.5;
    const allowable = Math.round((p.material.yield_mpa / sf) * 10) / 10;
    const dims = [...p.dimensions_mm].sort((a, b) => b - a);
    const constraints = [
      ...(p.loads.length
        ? [
            {
              id: 'REQ-STRESS',
              metric: 'max_von_mises_mpa',
              operator: '<=',
              limit: allowable,
              unit: 'MPa',
              severity: 'error',
              verification_method: 'analysis',
              message: `yield ${p.material.yield_mpa} MPa / safety factor ${sf}`,
            },
          ]
        : []),
      ...['length_mm', 'width_mm', 'height_mm'].map((metric, i) => ({
        id: `REQ-ENV-${i + 1}`,
        metric,
        operator: '<=',
        limit: dims[i] ?? dims[0],
        unit: 'mm',
        severity: 'error',
        verification_method: 'inspection',
        message: 'stated envelope',
      })),
    ];
    return recordRequirements(input, intent, {
      constraints,
      statement: `The part carries ${p.loads.map((l) => `${l.magnitude_n} N at the ${l.location}`).join(' and ') || 'no stated load'}, in ${p.material.name}, within ${p.dimensions_mm.join(' x ')} mm.`,
      decision: `Verify stress by finite-element analysis against ${allowable} MPa and the envelope by inspection of the geometry`,
      rationale: `allowable = yield ${p.material.yield_mpa} MPa / safety factor ${sf}`,
      summary: `allowable stress ${allowable} MPa`,
    });
  });

/** feasibility: a first-order hand calculation, labelled as such (never as analysis), and the risks. */
export const feasibilityPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const { parameters: p } = await intentOf(input);
    if (!p.material || !p.dimensions_mm || p.dimensions_mm.length < 3)
      throw new PhaseStop('data', 'the hand calculation needs the material and three dimensions');
    const [L, b, h] = [...p.dimensions_mm].sort((x, y) => y - x);
    const P = p.loads.reduce((sum, l) => sum + l.magnitude_n, 0);
    const section = { P, L, b, h, E: p.material.modulus_mpa };
    const { sigma, delta } = cantilever(section);
    const sf = p.safety_factor ?? 1.5;
    const allowable = p.material.yield_mpa / sf;
    // Over its allowable the hand calculation is an error finding of the gate, with the remedy (decision 0060).
    const r = cantileverRemedy(section, allowable);
    const findings =
      sigma > allowable
        ? [
            {
              kind: 'analysis' as const,
              severity: 'error',
              overridable: true,
              message: `HAND CALCULATION: root bending stress ${fmt(sigma)} MPa exceeds the allowable ${fmt(allowable)} MPa (yield ${p.material.yield_mpa} MPa / safety factor ${sf}) for ${L} x ${b} x ${h} mm under ${P} N; remedy: a section height of at least ${fmt(r.h)} mm at ${b} mm width, or a width of at least ${fmt(r.b)} mm at ${h} mm height, or a tip load of at most ${fmt(r.P)} N. Approve with an override_reason only to go on regardless`,
            },
          ]
        : [];
    const d = await use(input, 'twin.record_decision', {
      title: 'Feasibility (HAND CALCULATION, not analysis)',
      decision: `HAND CALCULATION, first-order cantilever estimate (not an analysis): root bending stress ${fmt(sigma)} MPa, tip deflection ${fmt(delta)} mm, against an allowable of ${fmt(allowable)} MPa — ${sigma <= allowable ? 'looks feasible' : 'likely to exceed the allowable'}; the finite-element analysis in the simulation phase decides.`,
      rationale: `sigma = P L (h/2) / I, I = b h^3 / 12 with P = ${P} N, L = ${L} mm, b = ${b} mm, h = ${h} mm; delta = P L^3 / (3 E I), E = ${p.material.modulus_mpa} MPa`,
      alternatives: [
        'Risk (owner: design): stress concentration at the fixed end; mitigation: fillet at the root',
        'Risk (owner: simulation): the fixed-edge stress is singular; mitigation: compare the bending stress away from the edge and check mesh convergence',
      ],
    });
    return {
      summary: `hand calculation: ${fmt(sigma)} MPa vs ${fmt(allowable)} MPa allowable`,
      deliverables: [{ type: 'design_decision', node_id: d.node_id }],
      findings,
    };
  });
