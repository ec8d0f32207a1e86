import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequirementResultSchema } from '../../contracts/design-flows.ts';
import {
  RequirementVerdictSchema,
  evaluateRun,
  gateFindingOf,
  lifecycleRowOf,
  statusOfFinding,
  type RunRequirementInput,
} from '../../contracts/requirement-verdicts.ts';
import { holds } from '../../contracts/requirements.ts';

/**
 * Property test of the one evaluator (issue 28 point 2, decision 0080): random requirement and evidence sets go through
 * evaluateRun and each view's mapping; every requirement appears in each view, blocking ones first, with one status.
 */

const METRICS = ['max_von_mises_mpa', 'max_displacement_mm', 'safety_factor', 'length_mm', 'width_mm', 'mass_kg'];
const OPS = ['<=', '<', '>=', '>', '=='];
const value = fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true });
const props = fc.dictionary(fc.constantFrom(...METRICS), value, { maxKeys: 4 });
const evidence = (id: string) =>
  fc.option(
    props.map((p) => ({ node_id: id, ref: `${id.toUpperCase()}@1`, properties: p })),
    { nil: undefined },
  );

const input: fc.Arbitrary<RunRequirementInput> = fc
  .record({
    reqs: fc.array(
      fc.record({
        metric: fc.constantFrom(...METRICS),
        operator: fc.constantFrom(...OPS),
        limit: value,
        severity: fc.constantFrom('error', 'warning'),
        waived: fc.boolean(),
      }),
      { maxLength: 8 },
    ),
    result: evidence('res'),
    geometry: evidence('geo'),
    verification: evidence('ver'),
    stale: fc.array(
      fc.record({ kind: fc.constantFrom('simulation_result' as const, 'geometry' as const), properties: props }),
      { maxLength: 2 },
    ),
  })
  .map(({ reqs, stale, ...ev }) => ({
    ...ev,
    constraints: reqs.map((r, i) => ({ set: 'REQS@1', c: { id: `REQ-${i}`, ...r, unit: 'u' } })),
    waivers: { 'REQS@1': Object.fromEntries(reqs.flatMap((r, i) => (r.waived ? [[`REQ-${i}`, 'accepted']] : []))) },
    stale: stale.map((s, i) => ({ ...s, node_id: `old${i}`, ref: `OLD@${i}`, stale_reason: 'superseded' })),
  }));

describe('the one requirement evaluator', () => {
  it('every requirement appears once in each view, blocking first, and the views agree on its status', () => {
    fc.assert(
      fc.property(input, (inp) => {
        const verdicts = evaluateRun(inp);
        expect(verdicts.map((v) => v.id).sort()).toEqual(inp.constraints.map((c) => c.c.id).sort());
        const firstFree = verdicts.findIndex((v) => !v.blocking);
        if (firstFree >= 0) expect(verdicts.slice(firstFree).every((v) => !v.blocking)).toBe(true);
        for (const v of verdicts) {
          RequirementVerdictSchema.parse(v);
          const row = RequirementResultSchema.parse(lifecycleRowOf(v));
          expect(row.verdict).toBe(v.status);
          expect(row.status).toBe(
            v.status === 'waived' ? 'pass' : ['pass', 'fail'].includes(v.status) ? v.status : 'no_data',
          );
          const finding = gateFindingOf(v);
          expect(statusOfFinding(finding)).toBe(v.status === 'waived' ? 'pass' : v.status);
          if (v.status === 'pass' || v.status === 'fail') {
            expect(v.value).not.toBeNull();
            expect(holds(v.value!, v.operator, v.limit)).toBe(v.status === 'pass');
            expect(v.evidence).not.toBeNull();
          }
          if (v.status === 'not_verified') expect(v.evidence).toBeNull();
          expect(v.blocking).toBe(v.severity === 'error' && !['pass', 'waived'].includes(v.status));
          expect(v.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('stale evidence never passes: a requirement only stale evidence states is stale, with that evidence named', () => {
    const [v] = evaluateRun({
      constraints: [{ set: 'REQS@2', c: { id: 'REQ-DEFL', metric: 'max_displacement_mm', limit: 0.5, unit: 'mm' } }],
      geometry: { node_id: 'g2', ref: 'CAD@2', properties: {} },
      stale: [
        {
          kind: 'simulation_result',
          node_id: 's1',
          ref: 'SIM@1',
          properties: { max_displacement_mm: 0.2 },
          stale_reason: 'CAD@1 was superseded',
        },
      ],
    });
    expect(v).toMatchObject({ status: 'stale', blocking: true, value: null, evidence: { node_id: 's1' } });
    expect(v.reason).toContain('CAD@1 was superseded');
    expect(gateFindingOf(v)).toMatchObject({ kind: 'analysis', severity: 'error' });
  });

  it('lists the failing deflection first, before the passing envelope requirements', () => {
    const verdicts = evaluateRun({
      constraints: [
        { set: 'REQS@1', c: { id: 'REQ-ENV-1', metric: 'length_mm', limit: 130, unit: 'mm' } },
        { set: 'REQS@1', c: { id: 'REQ-DEFL', metric: 'max_displacement_mm', limit: 0.5, unit: 'mm' } },
      ],
      geometry: { node_id: 'g', ref: 'CAD@1', properties: { length_mm: 120 } },
      result: { node_id: 'r', ref: 'SIM@1', properties: { max_displacement_mm: 0.745 } },
    });
    expect(verdicts.map((v) => [v.id, v.status, v.value])).toEqual([
      ['REQ-DEFL', 'fail', 0.745],
      ['REQ-ENV-1', 'pass', 120],
    ]);
  });
});
