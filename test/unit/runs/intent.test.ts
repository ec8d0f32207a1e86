import { describe, expect, it } from 'vitest';
import { compileIntent, extractDimensions, extractLoads } from '../../../actors/flows/compile.ts';
import { CompiledIntentSchema } from '../../../contracts/intent.ts';

describe('the intent compiler', () => {
  it('extracts goal, dimensions, load, material and safety factor from the cantilever request', () => {
    const i = compileIntent('a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2');
    expect(CompiledIntentSchema.parse(i)).toBeTruthy();
    expect(i.goal_object).toBe('cantilever bracket');
    expect(i.parameters).toMatchObject({
      dimensions_mm: [200, 20, 10],
      loads: [{ magnitude_n: 100, location: 'tip' }],
      material: { solver_material: 'steel', yield_mpa: 250 },
      safety_factor: 2,
      budget: null,
    });
    expect(i.success_criteria[0]).toMatchObject({ metric: 'max_von_mises_mpa', target: '<= 125 MPa' });
    expect(i.unknowns).toEqual([{ question: 'Is there a cost target?', blocking: false }]);
    expect(i.requested_deliverables).toEqual(['cad_model', 'simulation_result', 'design_decision']);
    expect(i.facts).toMatchObject({ loads_known: true, budget_stated: false });
    expect(i.constraints.map((c) => c.category)).toEqual(['geometry', 'load', 'material', 'safety']);
  });

  it('reads units, kN, budgets and marks what is missing as blocking or not', () => {
    expect(extractDimensions('a plate 0.3 by 0.1 by 0.005 m')).toEqual([300, 100, 5]);
    expect(extractLoads('carries 2.5 kN downward at the center and 100 N on the flange')).toEqual([
      expect.objectContaining({ magnitude_n: 2500, direction: 'downward', location: 'center' }),
      expect.objectContaining({ magnitude_n: 100, location: 'flange' }),
    ]);
    const vague = compileIntent('make something nice for under $200');
    expect(vague.parameters.budget).toEqual({ amount: 200, currency: 'USD' });
    expect(vague.unknowns.filter((u) => u.blocking).map((u) => u.question)).toEqual([
      'What part or product should be designed?',
      'What are the overall dimensions (envelope) in mm?',
      'Which material should the part be made of?',
    ]);
  });

  it('is deterministic', () => {
    const text = 'an aluminium mount 80 x 40 x 6 mm holding 300 N at the end';
    expect(compileIntent(text)).toEqual(compileIntent(text));
    expect(compileIntent(text).parameters.material?.solver_material).toBe('aluminium_6061');
  });
});
