import { describe, expect, it } from 'vitest';
import { type ConditionError, evaluateCondition, parseCondition } from '../../../actors/runs/condition.ts';
import { FLOWS, freezeFlow, validateFlow } from '../../../actors/runs/flows/index.ts';
import { reworkTargetsOf } from '../../../actors/runs/graph.ts';

describe('the condition grammar', () => {
  it('parses ==, !=, in, not in joined by and, and evaluates over facts', () => {
    const c = parseCondition(
      'route == hardware and target_maturity in [prototype, "pilot run"] and loads_known != false and budget_stated not in [no]',
    );
    expect(c).toHaveLength(4);
    expect(
      evaluateCondition(c, {
        route: 'hardware',
        target_maturity: 'pilot run',
        loads_known: true,
        budget_stated: 'yes',
      }),
    ).toBe(true);
    expect(
      evaluateCondition(c, { route: 'hardware', target_maturity: 'concept', loads_known: true, budget_stated: 'yes' }),
    ).toBe(false);
  });

  it('names the position where a condition stops parsing', () => {
    const err = (src: string) => {
      try {
        parseCondition(src);
      } catch (e) {
        return e as ConditionError;
      }
      throw new Error('parsed');
    };
    expect(err('route = hardware').message).toBe('condition does not parse at position 7: unexpected character "="');
    expect(err('route == hardware or x == y').position).toBe(19);
    expect(err('route in [a, b').message).toContain('expected "]" at the end');
    expect(err('').message).toContain('expected a fact name');
  });
});

describe('built-in flows', () => {
  it('defines hardware_v1 with 11 phases and mech_v1 with 6, each with a gate and required deliverables', () => {
    expect(FLOWS.hardware_v1.phases.map((p) => p.id)).toEqual([
      'intent',
      'needs',
      'requirements',
      'feasibility',
      'architecture',
      'concept_selection',
      'design',
      'electronics',
      'firmware',
      'simulation',
      'manufacturing',
    ]);
    expect(FLOWS.mech_v1.phases.map((p) => p.id)).toEqual([
      'intent',
      'needs',
      'requirements',
      'feasibility',
      'design',
      'simulation',
    ]);
    for (const f of Object.values(FLOWS))
      for (const p of validateFlow(f).phases) expect(p.required_deliverables.length, p.id).toBeGreaterThan(0);
    expect(reworkTargetsOf(FLOWS.mech_v1, 'simulation')).toEqual([
      'intent',
      'needs',
      'requirements',
      'feasibility',
      'design',
    ]);
  });

  it('freezes a version with a content hash that ignores unset graph fields and covers the facts', () => {
    const a = freezeFlow(FLOWS.mech_v1, { loads_known: true });
    const withUndefined = {
      ...FLOWS.mech_v1,
      phases: FLOWS.mech_v1.phases.map((p) => ({ ...p, depends_on: undefined, condition: undefined })),
    };
    expect(freezeFlow(withUndefined, { loads_known: true }).content_hash).toBe(a.content_hash);
    expect(freezeFlow(FLOWS.mech_v1, { loads_known: false }).content_hash).not.toBe(a.content_hash);
    const withGraph = {
      ...FLOWS.mech_v1,
      phases: FLOWS.mech_v1.phases.map((p, i) => (i === 1 ? { ...p, depends_on: ['intent'] } : p)),
    };
    expect(freezeFlow(withGraph, { loads_known: true }).content_hash).not.toBe(a.content_hash);
  });

  it('refuses a flow whose condition does not parse, naming the phase and position', () => {
    const bad = {
      ...FLOWS.mech_v1,
      phases: FLOWS.mech_v1.phases.map((p, i) => (i === 2 ? { ...p, condition: 'loads_known = true' } : p)),
    };
    expect(() => validateFlow(bad)).toThrow(/phase requirements: condition does not parse at position 13/);
  });
});
