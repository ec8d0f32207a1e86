import { z } from 'zod';
import { defineTool, InvalidArgumentsError, type ToolContext } from '../kit/tool.ts';
import { existingFile, type SolverDeps } from './deps.ts';
import { MaterialArgSchema, resolveMaterial } from './materials.ts';

const r = (x: number, d = 5) => Number(x.toPrecision(d));
const Beam = {
  length_mm: z.number().positive().describe('free length L from the clamp to the tip'),
  width_mm: z.number().positive().describe('section width b (across the load)'),
  height_mm: z.number().positive().describe('section height h (along the load)'),
  material: MaterialArgSchema,
  frd_path: z
    .string()
    .min(1)
    .optional()
    .describe('a solved .frd of the beam to measure (beam along axis from its low end, load along load_axis)'),
  axis: z.enum(['x', 'y', 'z']).default('x'),
  load_axis: z.enum(['x', 'y', 'z']).default('z'),
  tolerance_percent: z.number().positive().default(5),
};

type Comparison = {
  quantity: string;
  analytical: number;
  fea: number;
  percent_difference: number;
  within_tolerance: boolean;
};
const compare = (quantity: string, analytical: number, fea: number | undefined | null, tol: number): Comparison[] => {
  if (fea === undefined || fea === null || !Number.isFinite(fea)) return [];
  const d = ((fea - analytical) / Math.abs(analytical)) * 100;
  return [
    {
      quantity,
      analytical: r(analytical),
      fea: r(fea),
      percent_difference: Number(d.toFixed(3)),
      within_tolerance: Math.abs(d) <= tol,
    },
  ];
};
const verdict = (comparisons: Comparison[]) => ({
  comparisons,
  passed: comparisons.length ? comparisons.every((c) => c.within_tolerance) : null,
  ...(comparisons.length ? {} : { note: 'nothing to compare: give frd_path or the fea_* values' }),
});

/** `cross_check_cantilever_beam`, `cross_check_cantilever_frequency`, `cross_check_thermal_steady_state`: FEA against closed forms. */
export function crossCheckTools(deps: SolverDeps) {
  const probe = async (
    tc: ToolContext,
    a: { frd_path?: string; axis: 'x' | 'y' | 'z'; load_axis: 'x' | 'y' | 'z' },
    stationMm: number | null = null,
  ) => {
    if (!a.frd_path) return undefined;
    const frdPath = await existingFile(deps.workspace, a.frd_path, 'frd_path');
    if (a.axis === a.load_axis) throw new InvalidArgumentsError('axis and load_axis must differ');
    const { ok: _ok, ...measured } = await deps.pool.run(
      'probeFrd',
      { frdPath, axis: a.axis, loadAxis: a.load_axis, stationMm },
      tc.signal,
    );
    return measured;
  };
  return [
    defineTool({
      name: 'cross_check_cantilever_beam',
      title: 'Check a static result against beam theory',
      description:
        'Euler-Bernoulli cantilever (tip load P): tip deflection P L³/(3 E I) (and with Timoshenko shear), bending stress P (L − x) c / I at station_mm and at the root. ' +
        'Compares with fea_* values or measures a solved .frd (mean tip deflection; bending-fibre stress fitted at the station). The clamp singularity makes the whole-body max stress no beam-theory quantity.',
      input: z.object({
        ...Beam,
        force_n: z.number().positive().describe('tip load magnitude P'),
        station_mm: z
          .number()
          .min(0)
          .optional()
          .describe('distance from the clamp where bending stress is compared (default L/4)'),
        fea_tip_deflection_mm: z.number().optional(),
        fea_stress_at_station_mpa: z.number().optional(),
      }),
      handler: async (a, tc) => {
        const m = resolveMaterial(a.material);
        const { length_mm: L, width_mm: b, height_mm: h, force_n: P } = a;
        const x = a.station_mm ?? L / 4;
        if (x > L) throw new InvalidArgumentsError(`station_mm ${x} is beyond the length ${L}`);
        const I = (b * h ** 3) / 12;
        const c = h / 2;
        const E = m.youngs_modulus_mpa;
        const G = E / (2 * (1 + m.poisson_ratio));
        const tip = (P * L ** 3) / (3 * E * I);
        const p = await probe(tc, a, x);
        const fibres = p
          ? [p.top_fibre_stress_mpa, p.bottom_fibre_stress_mpa].filter((v): v is number => v !== undefined)
          : [];
        const feaTip =
          a.fea_tip_deflection_mm ?? (p?.tip_deflection_mm !== undefined ? Math.abs(p.tip_deflection_mm) : undefined);
        const feaStress =
          a.fea_stress_at_station_mpa ??
          (fibres.length ? fibres.reduce((s, v) => s + Math.abs(v), 0) / fibres.length : undefined);
        const tol = a.tolerance_percent;
        return {
          analytical: {
            moment_of_inertia_mm4: r(I, 6),
            tip_deflection_mm: r(tip),
            tip_deflection_with_shear_mm: r(tip + (P * L) / ((5 / 6) * G * b * h)),
            root_bending_stress_mpa: r((P * L * c) / I),
            station_mm: x,
            bending_stress_at_station_mpa: r((P * (L - x) * c) / I),
          },
          ...(p ? { measured: p } : {}),
          ...verdict([
            ...compare('tip_deflection_mm', tip, feaTip, tol),
            ...compare('bending_stress_at_station_mpa', (P * (L - x) * c) / I, feaStress, tol),
          ]),
          notes:
            'A fully fixed 3D clamp also holds the Poisson contraction: FEA deflection typically lands ~0.5 % under Euler-Bernoulli. Stress at the clamp edge is singular; compare away from it.',
        };
      },
    }),
    defineTool({
      name: 'cross_check_cantilever_frequency',
      title: 'Check a modal result against beam theory',
      description:
        'Euler-Bernoulli cantilever natural frequencies f = λ²/(2π L²) √(E I / (ρ A)), λ = 1.8751, 4.6941, 7.8548, bending in both section directions. ' +
        'Compares the lowest with fea_first_frequency_hz or the first mode of a solved modal .frd.',
      input: z.object({ ...Beam, fea_first_frequency_hz: z.number().positive().optional() }),
      handler: async (a, tc) => {
        const m = resolveMaterial(a.material);
        const { length_mm: L, width_mm: b, height_mm: h } = a;
        const rho = m.density_kg_m3 * 1e-12;
        const freq = (lambda: number, I: number) =>
          (lambda ** 2 / (2 * Math.PI * L ** 2)) * Math.sqrt((m.youngs_modulus_mpa * I) / (rho * b * h));
        const modes = [1.8751, 4.6941, 7.8548].flatMap((lambda, k) => [
          { mode: k + 1, direction: 'height (load axis)', frequency_hz: r(freq(lambda, (b * h ** 3) / 12)) },
          { mode: k + 1, direction: 'width', frequency_hz: r(freq(lambda, (h * b ** 3) / 12)) },
        ]);
        modes.sort((p, q) => p.frequency_hz - q.frequency_hz);
        const p = await probe(tc, a);
        const fea = a.fea_first_frequency_hz ?? p?.frequencies_hz?.[0];
        return {
          analytical: { bending_modes: modes, first_frequency_hz: modes[0].frequency_hz },
          ...(p ? { measured: { frequencies_hz: p.frequencies_hz } } : {}),
          ...verdict(compare('first_frequency_hz', modes[0].frequency_hz, fea, a.tolerance_percent)),
          notes: 'Bending modes only (no torsion or axial modes); slender beams (L/h > 10) match within about 1 %.',
        };
      },
    }),
    defineTool({
      name: 'cross_check_thermal_steady_state',
      title: 'Check a thermal result against 1-D conduction',
      description:
        'One-dimensional conduction through a bar: hot-end temperature T = T_sink + P L / (k A). Compares with fea_max_temperature_c or the max temperature of a solved thermal .frd.',
      input: z.object({
        length_mm: z.number().positive(),
        cross_section_area_mm2: z.number().positive(),
        material: MaterialArgSchema,
        power_w: z.number().positive(),
        sink_temp_c: z.number().default(20),
        fea_max_temperature_c: z.number().optional(),
        frd_path: Beam.frd_path,
        axis: Beam.axis,
        tolerance_percent: Beam.tolerance_percent,
      }),
      handler: async (a, tc) => {
        const m = resolveMaterial(a.material);
        const rise = (1000 * a.power_w * a.length_mm) / (m.thermal_conductivity_w_mk * a.cross_section_area_mm2);
        const hot = a.sink_temp_c + rise;
        const p = await probe(tc, { frd_path: a.frd_path, axis: a.axis, load_axis: a.axis === 'z' ? 'x' : 'z' });
        const fea = a.fea_max_temperature_c ?? p?.temperature?.max;
        return {
          analytical: {
            temperature_rise_k: r(rise),
            hot_end_temperature_c: r(hot),
            thermal_resistance_k_per_w: r(rise / a.power_w),
          },
          ...(p ? { measured: { temperature: p.temperature } } : {}),
          ...verdict(compare('hot_end_temperature_c', hot, fea, a.tolerance_percent)),
          notes:
            'Percent difference is on the temperature in C; judge the rise over the sink when the sink is near 0 C.',
        };
      },
    }),
  ];
}
