import { describe, expect, it } from 'vitest';
import { resolveMaterial } from '../../actors/adapters/solver/materials.ts';
import { compileIntent } from '../../actors/flows/compile.ts';
import { MATERIALS as INTENT_MATERIALS } from '../../actors/flows/materials.ts';
import { MATERIAL_ALIASES, MATERIAL_NAMES, MATERIAL_TABLE, MATERIAL_WORDS } from '../../contracts/materials.ts';

/** One materials table (ISSUE 13 point 6): what the intent compiler records, the solver accepts, with the same numbers. */
describe('the materials table', () => {
  const requests = [
    'a stainless steel bracket 100 x 20 x 5 mm carrying 50 N at the tip',
    'a 304 bracket carrying 50 N',
    'an aluminium 6061-T6 plate 80 x 40 x 4 mm',
    'an aluminum bracket carrying 10 N',
    'a titanium Ti-6Al-4V clip',
    'a steel cantilever 200 x 20 x 10 mm carrying 100 N at the tip',
  ];

  it.each(requests)('the intent compiler names a material the solver accepts, with its properties: %s', (request) => {
    const m = compileIntent(request).parameters.material;
    expect(m).not.toBeNull();
    const solver = resolveMaterial(m!.solver_material);
    expect(solver.name).toBe(m!.solver_material);
    expect({ E: solver.youngs_modulus_mpa, nu: solver.poisson_ratio, rho: solver.density_kg_m3 }).toEqual({
      E: m!.modulus_mpa,
      nu: m!.poisson,
      rho: m!.density_kg_m3,
    });
  });

  it('every material the intent compiler can produce is a canonical solver name, and the requests above reach them all', () => {
    for (const entry of INTENT_MATERIALS) {
      expect(MATERIAL_NAMES).toContain(entry.solver_material);
      expect(resolveMaterial(entry.solver_material).youngs_modulus_mpa).toBe(entry.modulus_mpa);
    }
    const reached = new Set(requests.map((r) => compileIntent(r).parameters.material?.solver_material));
    expect([...reached].sort()).toEqual(MATERIAL_WORDS.map(([key]) => key).sort());
  });

  it('the names older intents recorded are accepted as aliases of the canonical names', () => {
    expect(resolveMaterial('stainless_304').name).toBe('stainless_steel_304');
    expect(resolveMaterial('Stainless Steel 304').name).toBe('stainless_steel_304');
    for (const [alias, key] of Object.entries(MATERIAL_ALIASES)) {
      expect(MATERIAL_NAMES).toContain(key);
      expect(resolveMaterial(alias).name).toBe(key);
    }
  });

  it('the solver lists every row of the table under its canonical name', () => {
    expect(MATERIAL_TABLE.map((m) => resolveMaterial(m.key).name)).toEqual(MATERIAL_NAMES);
    expect(new Set(MATERIAL_NAMES).size).toBe(MATERIAL_NAMES.length);
  });
});
