import type { PhaseExecutor } from '../../executor.ts';
import type { Deliverable } from '../../run.types.ts';
import { intentOf } from '../mech/early-phases.ts';
import { phase, PhaseStop, priorOf, use } from '../tools.ts';
import { type Budget, costBudget, massBudget, powerBudget, SUBSYSTEMS } from './budgets.ts';
import { hardwareFacts } from './request-facts.ts';

/** The interfaces between the subsystems (and the wall), as the architecture decision states them. */
export function interfacesOf(logicV: number): string[] {
  return [
    'structure-wall: bracket fixed to the wall, carrying the enclosure at its standoff',
    'structure-electronics: board mounted inside the housing; sensor vented to ambient air',
    `power-electronics: USB 5 V in, regulated ${logicV} V rail out`,
    `firmware-electronics: sensor read over I2C at ${logicV} V logic; USB as supply (and programming port)`,
  ];
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/** The metric of a budget's allocation (`total`: of the whole budget), as its derived requirement names it. */
export const budgetMetric = (b: Pick<Budget, 'id' | 'unit'>, a: { subsystem: string; item: string } | 'total') =>
  a === 'total' ? `total_${b.id}_${slug(b.unit)}` : `${a.subsystem}_${slug(a.item)}_${b.id}_${slug(b.unit)}`;

/** A budget's derived requirements: one limit per non-zero allocation plus the total within the reserve. */
export function budgetConstraints(b: Budget, parentRef: string) {
  const per = b.allocations
    .filter((a) => a.value > 0)
    .map((a, i) => ({
      id: `DER-${b.id.toUpperCase()}-${i + 1}`,
      metric: budgetMetric(b, a),
      operator: '<=',
      limit: a.value,
      unit: b.unit,
      severity: 'warning',
      verification_method: b.id === 'cost' ? 'inspection' : 'analysis',
      message: `derived from ${parentRef}: ${a.basis}`,
    }));
  const total = {
    id: `DER-${b.id.toUpperCase()}-TOTAL`,
    metric: budgetMetric(b, 'total'),
    operator: '<=',
    limit: Number((b.limit * (1 - b.reserve)).toFixed(6)),
    unit: b.unit,
    severity: 'error',
    verification_method: b.id === 'cost' ? 'inspection' : 'analysis',
    message: `derived from ${parentRef}: ${b.limit_basis}, less ${b.reserve * 100} % reserve`,
  };
  return [...per, total];
}

const line = (b: Budget) =>
  `${b.id} ${b.total} of ${b.limit} ${b.unit} (margin ${b.margin} ${b.unit}): ${b.allocations.map((a) => `${a.subsystem}/${a.item} ${a.value}`).join(', ')}`;

/**
 * architecture: the subsystems and their interfaces, and the mass, power and cost budgets, each closed and recorded as
 * a derived constraint set naming the requirement it serves; the decision pins the parents and the derived sets.
 */
export const architecturePhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const p = intent.parameters;
    const facts = hardwareFacts(intent.immediate_request);
    const missing = [
      ...(facts.mass_kg === null ? ['the enclosure mass'] : []),
      ...(!p.dimensions_mm || p.dimensions_mm.length < 3 ? ['the enclosure envelope'] : []),
      ...(facts.power_source !== 'usb' ? ['a USB power source'] : []),
      ...(facts.logic_v === null ? ['the logic voltage'] : []),
      ...(!p.budget ? ['a parts-cost limit'] : []),
    ];
    if (missing.length)
      throw new PhaseStop('data', `the budgets need ${missing.join(', ')}, which the request does not state`);
    const parent = priorOf(input, 'constraint_set').at(-1)?.ref;
    const intentRef = priorOf(input, 'intent').at(-1)?.ref;
    if (!parent || !intentRef)
      throw new PhaseStop('data', 'no requirements constraint set or intent was recorded in this run');
    const budgets = [
      massBudget(facts.mass_kg!, p.dimensions_mm!),
      powerBudget(),
      costBudget(p.budget!.amount, p.budget!.currency),
    ];
    const open = budgets.filter((b) => !b.closes);
    if (open.length) throw new PhaseStop('data', `budgets do not close: ${open.map(line).join('; ')}`);
    const deliverables: Deliverable[] = [];
    const derived: string[] = [];
    for (const b of budgets) {
      const cs = await use(input, 'twin.record_constraint_set', {
        name: `Derived: ${b.id} budget`,
        constraints: budgetConstraints(b, parent),
        parent_refs: [parent],
        change_reason: `derived from ${parent} and ${intentRef}: ${b.limit_basis}`,
      });
      derived.push(cs.item_ref);
      deliverables.push({ type: 'constraint_set', node_id: cs.node_id, ref: cs.item_ref });
    }
    const logicV = facts.logic_v!;
    const d = await use(input, 'twin.record_decision', {
      title: `Architecture of the ${intent.goal_object}`,
      decision: [
        `Subsystems: ${SUBSYSTEMS.join(', ')}.`,
        `Interfaces: ${interfacesOf(logicV).join('; ')}.`,
        `Budgets (all close): ${budgets.map(line).join('; ')}.`,
        `Derived requirement sets: ${derived.join(', ')} (parent ${parent}).`,
      ].join(' '),
      rationale: budgets
        .map(
          (b) =>
            `${b.id}: limit ${b.limit} ${b.unit} (${b.limit_basis}); ${b.allocations.map((a) => `${a.item} ${a.value} ${b.unit} — ${a.basis}`).join('; ')}`,
        )
        .join(' | '),
      alternatives: [
        'Power from a battery instead of USB: rejected, the request states USB power',
        'Firmware as part of electronics: kept separate, so its interface (I2C, USB) is reviewed on its own',
      ],
      depends_on: [parent, intentRef, ...derived],
    });
    deliverables.push({ type: 'design_decision', node_id: d.node_id });
    return {
      summary: `architecture: ${SUBSYSTEMS.length} subsystems, budgets close (${budgets.map((b) => `${b.id} margin ${b.margin} ${b.unit}`).join(', ')}); derived ${derived.join(', ')}`,
      deliverables,
    };
  });
