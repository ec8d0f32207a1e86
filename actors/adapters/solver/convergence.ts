import type { MeshConvergencePoint, MeshConvergenceRecord } from '../../../contracts/simulation.ts';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} %`;

/**
 * The mesh convergence record (SPEC "Mesh convergence record"): points from coarse to fine, the percent change of
 * max von Mises between neighbours, converged when the last change is within `tolerancePercent`. The advice names the
 * cause: a peak that keeps rising while the changes do not shrink is a stress singularity (a peak at a fixture edge or a
 * sharp re-entrant corner), which refinement never converges (notes/solver.md: 584 → 593 → 684 → 777 MPa).
 */
export function convergenceRecord(points: MeshConvergencePoint[], tolerancePercent = 5): MeshConvergenceRecord {
  const sorted = [...points].sort((a, b) => b.element_size_mm - a.element_size_mm);
  const changes = sorted.slice(1).map((p, k) => {
    const prev = sorted[k];
    const change =
      prev.max_von_mises_mpa === 0
        ? p.max_von_mises_mpa === 0
          ? 0
          : Infinity
        : ((p.max_von_mises_mpa - prev.max_von_mises_mpa) / Math.abs(prev.max_von_mises_mpa)) * 100;
    return {
      from_element_size_mm: prev.element_size_mm,
      to_element_size_mm: p.element_size_mm,
      percent_change: Number(change.toFixed(2)),
    };
  });
  const last = changes.at(-1)!;
  const converged = Math.abs(last.percent_change) <= tolerancePercent;
  const series = changes.map((c) => pct(c.percent_change)).join(', ');
  const finest = sorted.at(-1)!;
  let recommendation: string;
  if (converged) {
    recommendation = `converged: the last refinement (${last.from_element_size_mm} → ${last.to_element_size_mm} mm) changed max von Mises by ${pct(last.percent_change)}, within ${tolerancePercent} %; use ${finest.max_von_mises_mpa} MPa from the ${finest.element_size_mm} mm mesh.`;
  } else if (
    singular(
      changes.map((c) => c.percent_change),
      tolerancePercent,
    )
  ) {
    recommendation =
      `not converged: max von Mises keeps rising as the elements shrink (${series}) and the changes do not shrink. That is a stress singularity, ` +
      'typically the peak at a fixture edge (a fully fixed face meeting free faces) or at a sharp re-entrant corner: refining will not converge it. ' +
      'Judge stress away from the fixture (a section a few element sizes from it), model the support compliance or the real fillet radius, or check a converging quantity such as the displacement.';
  } else if (changes.length === 1) {
    recommendation = `not converged: one refinement changed max von Mises by ${pct(last.percent_change)} (over ${tolerancePercent} %); add a finer mesh (about ${Number((finest.element_size_mm / 1.5).toPrecision(2))} mm) to see whether the changes shrink.`;
  } else {
    recommendation = `not converged yet: changes ${series}; the last is over ${tolerancePercent} %. Refine further (next element size about ${Number((finest.element_size_mm / 1.5).toPrecision(2))} mm) until a change falls within ${tolerancePercent} %.`;
  }
  return { points: sorted, changes, converged, recommendation };
}

/** Rising at every refinement with the last change no smaller than half the one before (and beyond the tolerance). */
function singular(changes: number[], tol: number): boolean {
  if (changes.length < 2) return false;
  const rising = changes.every((c) => c > 0);
  const a = changes.at(-2)!;
  const b = changes.at(-1)!;
  return rising && b > tol && b >= 0.5 * a;
}
