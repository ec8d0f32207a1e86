/**
 * First-order hand calculations the flows share (pure, no I/O). The feasibility phase and hardware concept selection
 * both size a rectangular-section cantilever with these, so a concept is judged by the same numbers as feasibility.
 */

/** A rectangular-section cantilever: tip load P (N), lever arm L (mm), width b (mm), height h (mm), modulus E (MPa). */
export interface CantileverCase {
  P: number;
  L: number;
  b: number;
  h: number;
  E: number;
}

/** Root bending stress and tip deflection of a cantilever. */
export interface CantileverResult {
  /** Second moment of area b h^3 / 12 (mm^4). */
  I: number;
  /** Root bending stress P L (h/2) / I (MPa). */
  sigma: number;
  /** Tip deflection P L^3 / (3 E I) (mm). */
  delta: number;
}

/**
 * What would bring the root stress down to the allowable, each change alone (pure): the section height at the same
 * width, the width at the same height, or the tip load the section carries. sigma = 6 P L / (b h^2).
 */
export function cantileverRemedy(c: CantileverCase, allowable: number): { h: number; b: number; P: number } {
  return {
    h: Math.sqrt((6 * c.P * c.L) / (c.b * allowable)),
    b: (6 * c.P * c.L) / (c.h ** 2 * allowable),
    P: (allowable * c.b * c.h ** 2) / (6 * c.L),
  };
}

/** Euler-Bernoulli cantilever with an end load: root stress and tip deflection (first order, not an analysis). */
export function cantilever(c: CantileverCase): CantileverResult {
  const I = (c.b * c.h ** 3) / 12;
  return { I, sigma: (c.P * c.L * (c.h / 2)) / I, delta: (c.P * c.L ** 3) / (3 * c.E * I) };
}
