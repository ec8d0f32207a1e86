import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forViewer, type SourceItem } from '../../actors/approvals/approval.machine.ts';
import { withVerdicts } from '../../actors/approvals/verdicts.ts';
import type { HeadRow } from '../../actors/twin/compliance/evidence.rules.ts';
import { requirementItems, verdictKey } from '../../actors/twin/compliance/items.rules.ts';
import { ApprovalItemSchema } from '../../contracts/approvals.ts';
import { RequirementResultSchema } from '../../contracts/design-flows.ts';
import {
  evaluateEvidence,
  gateFindingsOf,
  lifecycleRowOf,
  statusOfFinding,
  waiversOf,
} from '../../contracts/requirement-verdicts.ts';

/**
 * Issue 28 point 2, the four views (decision 0080): random requirement sets (some waived, in each form a set may state
 * its waivers) and random evidence go through the one evaluator, then through each view's own building function: the
 * gate's findings (gateFindingsOf), the lifecycle table (lifecycleRowOf), the compliance checklist (requirementItems,
 * the twin's pure rules) and the approvals item (withVerdicts + forViewer, parsed by the wire schema). Every
 * requirement appears in each, in the evaluator's order where the view has one, and all four give it one status.
 */

/** Metrics with the units a constraint set states them in (the unit decides a requirement's discipline). */
const UNITS: Record<string, string> = {
  max_von_mises_mpa: 'MPa',
  max_displacement_mm: 'mm',
  safety_factor: '',
  length_mm: 'mm',
  width_mm: 'mm',
  mass_kg: 'kg',
};
const METRICS = Object.keys(UNITS);
const value = fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true });
const props = fc.dictionary(fc.constantFrom(...METRICS), value, { maxKeys: 4 });
const evidence = (id: string) =>
  fc.option(
    props.map((p) => ({ node_id: id, ref: `${id.toUpperCase()}@1`, properties: p })),
    { nil: null },
  );
/** How a set states a waiver of one requirement: in a map (reason, or {reason}), or in a list (id, or {id, reason}). */
const FORMS = ['map', 'map-object', 'list', 'list-object'] as const;

const arb = fc.record({
  reqs: fc.array(
    fc.record({
      metric: fc.constantFrom(...METRICS),
      operator: fc.constantFrom('<=', '<', '>=', '>', '=='),
      limit: value,
      severity: fc.constantFrom('error', 'warning'),
      waived: fc.option(fc.constantFrom(...FORMS), { nil: undefined }),
    }),
    { maxLength: 8 },
  ),
  listForm: fc.boolean(),
  result: evidence('res'),
  geometry: evidence('geo'),
  verification: evidence('ver'),
});

type Drawn = typeof arb extends fc.Arbitrary<infer T> ? T : never;

/** The constraint set revision as the twin stores it, its waivers in one form (a map or a list). */
function setOf(a: Drawn) {
  const constraints = a.reqs.map(({ waived: _w, ...r }, i) => ({ id: `REQ-${i}`, ...r, unit: UNITS[r.metric] }));
  const waived = a.reqs.flatMap((r, i) => (r.waived ? [{ id: `REQ-${i}`, form: r.waived }] : []));
  const waivers = a.listForm
    ? waived.map((w) => (w.form.endsWith('object') ? { id: w.id, reason: 'accepted' } : w.id))
    : Object.fromEntries(waived.map((w) => [w.id, w.form.endsWith('object') ? { reason: 'accepted' } : 'accepted']));
  const set: HeadRow = {
    key: 'REQS',
    item_type: 'constraint_set',
    revision: 1,
    node_id: 'n-set',
    name: 'limits',
    properties: { constraints, waivers },
    author: 'alice',
    change_reason: 'set reviewed',
    stale: false,
    stale_reason: null,
    created_at: '2026-01-01T00:00:00.000Z',
    run_id: 'run_1',
  };
  return { set, constraints, waivedIds: waived.map((w) => w.id) };
}

const CHECKLIST_OF: Record<string, string> = {
  verified: 'pass',
  failed: 'fail',
  unverified: 'not_verified',
  stale: 'stale',
  waived: 'waived',
};

const pendingGate = (): SourceItem => ({
  id: 'gate:run_1',
  kind: 'gate',
  status: 'pending',
  title: 'Simulation review: a bracket',
  summary: '',
  project_id: 'p1',
  findings: [],
  allowed_decisions: ['reject', 'retry'],
  rework_targets: [],
  detail: {},
  blocked: null,
  source: { type: 'gate', run_id: 'run_1', gate_id: 'run_1:simulation:1', gone: false, idems: [] },
});

describe('the four views of the one evaluator agree (property)', () => {
  it('gate findings, lifecycle table, compliance checklist and approvals item give each requirement one status', () => {
    fc.assert(
      fc.property(arb, (a) => {
        const { set, constraints, waivedIds } = setOf(a);
        // As twin.gateEvidence answers it: the set's constraints and its waivers read by waiversOf.
        const verdicts = evaluateEvidence({
          constraints: constraints.map((c) => ({ set: 'REQS@1', c })),
          result: a.result,
          geometry: a.geometry,
          verification: a.verification,
          waivers: { 'REQS@1': waiversOf(set.properties.waivers, set.change_reason ?? '') },
        });
        expect(
          verdicts
            .filter((v) => v.status === 'waived')
            .map((v) => v.id)
            .sort(),
        ).toEqual([...waivedIds].sort());

        const findings = gateFindingsOf(verdicts);
        const table = verdicts.map((v) => RequirementResultSchema.parse(lifecycleRowOf(v)));
        const byKey = new Map(verdicts.map((v) => [verdictKey(v.constraint_set, v.id), v]));
        const checklist = requirementItems([set], [], byKey);
        const item = ApprovalItemSchema.parse(
          forViewer(withVerdicts(pendingGate(), verdicts), undefined, { allowAgentHumanAuthority: false }),
        );

        // Every requirement once in the table, the checklist and the item, in the evaluator's order (blocking first).
        const order = verdicts.map((v) => v.id);
        expect(table.map((r) => r.id)).toEqual(order);
        expect(item.verdicts!.map((v) => v.id)).toEqual(order);
        expect(checklist.map((i) => i.requirement!.id).sort()).toEqual([...order].sort());
        // The findings are the non-passing requirements, in the same order.
        const named = findings.map((f) =>
          verdicts.findIndex((v) => f.message.includes(`: ${v.id} (${v.constraint_set}) `)),
        );
        expect(named).toEqual([...named].sort((x, y) => x - y));

        for (const v of verdicts) {
          const finding = findings.find((f) => f.message.includes(`: ${v.id} (${v.constraint_set}) `)) ?? null;
          const row = table.find((r) => r.id === v.id)!;
          const listed = checklist.find((i) => i.requirement!.id === v.id)!;
          expect(listed.verification_method, v.metric).not.toBe('review');
          expect(row.verdict).toBe(v.status);
          expect(CHECKLIST_OF[listed.status]).toBe(v.status);
          expect(item.verdicts!.find((x) => x.id === v.id)!.status).toBe(v.status);
          // A finding cannot tell a waiver from a pass: both have none.
          expect(statusOfFinding(finding)).toBe(v.status === 'waived' ? 'pass' : v.status);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a decided gate item and an item of another kind carry no verdicts', () => {
    const verdicts = evaluateEvidence({ constraints: [{ set: 'S@1', c: { id: 'A', metric: 'length_mm', limit: 1 } }] });
    expect(withVerdicts({ ...pendingGate(), status: 'approved' }, verdicts).verdicts).toBeUndefined();
    const tool: SourceItem = {
      ...pendingGate(),
      id: 'tool:1',
      kind: 'tool_call',
      source: { type: 'ledger', ledger_id: '1', kind: 'tool_call' },
    };
    expect(withVerdicts(tool, verdicts).verdicts).toBeUndefined();
    expect(withVerdicts(pendingGate(), verdicts).verdicts).toEqual(verdicts);
  });
});
