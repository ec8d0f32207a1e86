import { describe, expect, it } from 'vitest';
import { convergenceRecord } from '../../../actors/adapters/solver/convergence.ts';
import { jointLoads, JointLoadsInputSchema } from '../../../actors/adapters/solver/joint-loads.tool.ts';
import { MATERIALS, resolveMaterial, deckMaterial } from '../../../actors/adapters/solver/materials.ts';

const loads = (input: unknown) => jointLoads(JointLoadsInputSchema.parse(input));

describe('compute_joint_loads', () => {
  it('gives gravity torques of a horizontal two-link arm with a payload, and carries the masses outward in', () => {
    const r = loads({
      links: [
        { name: 'upper arm', length_mm: 500, mass_kg: 2 },
        { name: 'forearm', length_mm: 400, mass_kg: 1 },
      ],
      payload_kg: 0.5,
    });
    // Joint 1: 2 g 0.25 + 1 g 0.7 + 0.5 g 0.9; joint 2: 1 g 0.2 + 0.5 g 0.4 (g = 9.81).
    expect(r.joints.map((j) => j.torque_nm)).toEqual([16.187, 3.924]);
    expect(r.joints.map((j) => j.vertical_force_n)).toEqual([34.335, 14.715]);
    expect(r).toMatchObject({ total_mass_kg: 3.5, reach_mm: 900 });
  });

  it('uses the pose: an upright first link carries only the outer lever arms; the worst case stays horizontal', () => {
    const r = loads({
      links: [
        { length_mm: 500, mass_kg: 2, angle_deg: 90 },
        { length_mm: 400, mass_kg: 1 },
      ],
      payload_kg: 0.5,
      safety_factor: 2,
    });
    expect(r.joints[0].torque_nm).toBeCloseTo(3.924, 3);
    expect(r.joints[0].worst_case_torque_nm).toBe(16.187);
    expect(r.joints[0].design_torque_nm).toBe(32.373);
    expect(r.pose_reach_mm).toBe(400);
  });
});

describe('materials and the convergence record', () => {
  it('resolves names with aliases and converts to deck units; refuses an unknown name listing the table', () => {
    expect(resolveMaterial('Aluminum 6061')).toBe(MATERIALS.aluminium_6061);
    expect(deckMaterial(MATERIALS.steel)).toMatchObject({
      density_t_mm3: expect.closeTo(7.85e-9, 20),
      conductivity: 50,
      specific_heat: expect.closeTo(4.6e8, 0),
    });
    expect(resolveMaterial({ name: 'x', youngs_modulus_mpa: 1000, poisson_ratio: 0.4 })).toMatchObject({
      density_kg_m3: 7850,
    });
    expect(() => resolveMaterial('unobtainium')).toThrow(
      /unknown material "unobtainium"; known: steel, .*aluminium_6061/,
    );
  });

  it('calls shrinking changes "not converged yet" with the next size, and a two-point jump a reason to add a mesh', () => {
    const shrinking = convergenceRecord([
      { element_size_mm: 4, max_von_mises_mpa: 100 },
      { element_size_mm: 2, max_von_mises_mpa: 120 },
      { element_size_mm: 1, max_von_mises_mpa: 127 },
    ]);
    expect(shrinking).toMatchObject({ converged: false, changes: [{ percent_change: 20 }, { percent_change: 5.83 }] });
    expect(shrinking.recommendation).toMatch(
      /^not converged yet: changes \+20\.0 %, \+5\.8 %; .*next element size about 0\.67 mm/,
    );
    expect(
      convergenceRecord([
        { element_size_mm: 4, max_von_mises_mpa: 100 },
        { element_size_mm: 2, max_von_mises_mpa: 130 },
      ]).recommendation,
    ).toMatch(/add a finer mesh \(about 1\.3 mm\)/);
  });
});
