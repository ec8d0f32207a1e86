import * as replicad from 'replicad';
import type { AnyShape, Shape3D } from 'replicad';
import { KernelError, step } from './errors.ts';
import { oc } from './kernel.ts';
import { isValidShape, round6, volumeOf } from './measure.ts';

/** Boolean operations of the spec ("Boolean cut request", operation). */
export type BooleanKind = 'union' | 'subtract' | 'intersect';

/** Relative volume slack for plausibility checks (kernel tolerance on curved faces). */
const SLACK = 1e-6;

/** What a result must satisfy beyond validity: volume bounds derived from the operands. */
export interface Expectation {
  minVolume?: number;
  maxVolume?: number;
  /** The result must differ in volume from this (a shell that silently returned its input). */
  differsFrom?: number;
}

/** Why a result is unusable, or undefined when it is a valid solid that meets the expectation. */
export function defect(shape: AnyShape, expect: Expectation = {}): string | undefined {
  if (!replicad.isShape3D(shape)) return `the result is a ${shape.constructor.name}, not a solid`;
  if (!isValidShape(shape)) return 'the kernel validity check (BRepCheck_Analyzer) rejected the result';
  const v = volumeOf(shape);
  if (!(v > 0)) return `the result has no volume (${round6(v)} mm³)`;
  const tol = Math.max(1e-6, SLACK * Math.max(v, expect.maxVolume ?? 0, expect.minVolume ?? 0));
  if (expect.minVolume !== undefined && v < expect.minVolume - tol)
    return `the result lost volume (${round6(v)} mm³, expected at least ${round6(expect.minVolume)})`;
  if (expect.maxVolume !== undefined && v > expect.maxVolume + tol)
    return `the result gained volume (${round6(v)} mm³, expected at most ${round6(expect.maxVolume)})`;
  if (expect.differsFrom !== undefined && Math.abs(v - expect.differsFrom) <= tol)
    return 'the operation returned its input unchanged';
  return undefined;
}

/**
 * Runs a feature and checks its result (notes "Validity checking"): a result that is invalid, empty or implausible
 * is deleted and the operation fails with a KernelError naming the defect; never hands back an invalid solid.
 */
export function checked(
  what: string,
  build: () => AnyShape,
  expect: Expectation = {},
  details: Record<string, unknown> = {},
): Shape3D {
  const result = step(what, build);
  const bad = defect(result, expect);
  if (bad) {
    result.delete();
    throw new KernelError(`${what} produced no valid solid: ${bad}`, { operation: what, reason: bad, ...details });
  }
  return result as Shape3D;
}

/** The kernel's raw boolean without replicad's UnifySameDomain pass (the fallback of the fuse bug). */
function rawBoolean(a: Shape3D, b: Shape3D, kind: BooleanKind): AnyShape {
  const k = oc();
  const progress = new k.Message_ProgressRange();
  const algo =
    kind === 'union'
      ? new k.BRepAlgoAPI_Fuse(a.wrapped, b.wrapped, progress)
      : kind === 'subtract'
        ? new k.BRepAlgoAPI_Cut(a.wrapped, b.wrapped, progress)
        : new k.BRepAlgoAPI_Common(a.wrapped, b.wrapped, progress);
  try {
    algo.Build(progress);
    if (!algo.IsDone()) throw new KernelError(`raw ${kind} was not done by the kernel`);
    return replicad.cast(algo.Shape());
  } finally {
    algo.delete();
    progress.delete();
  }
}

/** Volume bounds a boolean result must respect, from its operands. */
function booleanExpectation(kind: BooleanKind, va: number, vb: number): Expectation {
  if (kind === 'union') return { minVolume: Math.max(va, vb), maxVolume: va + vb };
  if (kind === 'subtract') return { minVolume: Math.max(0, va - vb), maxVolume: va };
  return { maxVolume: Math.min(va, vb) };
}

/**
 * A checked boolean: replicad's operation first; when its result fails the check, the raw kernel boolean without
 * simplification; when that fails too, a tool error with both reasons. Inputs are not consumed.
 */
export function booleanChecked(a: Shape3D, b: Shape3D, kind: BooleanKind): Shape3D {
  const expect = booleanExpectation(kind, volumeOf(a), volumeOf(b));
  const first = step(`${kind}`, () => (kind === 'union' ? a.fuse(b) : kind === 'subtract' ? a.cut(b) : a.intersect(b)));
  const firstDefect = defect(first, expect);
  if (!firstDefect) return first;
  first.delete();
  const second = step(`${kind} (raw kernel boolean)`, () => rawBoolean(a, b, kind));
  const secondDefect = defect(second, expect);
  if (!secondDefect) return second as Shape3D;
  second.delete();
  throw new KernelError(
    `${kind} produced no valid solid: ${firstDefect}; retried without simplification: ${secondDefect}`,
    {
      operation: kind,
      reason: firstDefect,
      retry_reason: secondDefect,
    },
  );
}

/** A checked fillet or chamfer of every edge (or the edges a filter picks) by `size` mm. */
export function edgeFeature(
  shape: Shape3D,
  kind: 'fillet' | 'chamfer',
  size: number,
  filter?: (f: replicad.EdgeFinder) => replicad.EdgeFinder,
): Shape3D {
  const before = volumeOf(shape);
  return checked(
    `${kind} ${size} mm`,
    () => (kind === 'fillet' ? shape.fillet(size, filter) : shape.chamfer(size, filter)),
    { differsFrom: before },
    { [kind]: size },
  );
}
