import { createRequire } from 'node:module';
import type { AnyShape } from 'replicad';
import { boundingBox, round6, type BBox } from './measure.ts';

/** The slice of occt-import-js this module uses (the package ships no types). */
interface OcctMesh {
  name?: string;
  color?: [number, number, number];
  brep_faces?: { first: number; last: number; color: [number, number, number] | null }[];
  attributes: { position: { array: number[] } };
}
interface OcctNode {
  name?: string;
  meshes: number[];
  children: OcctNode[];
}
interface OcctImport {
  ReadStepFile(
    bytes: Uint8Array,
    params: Record<string, unknown> | null,
  ): { success: boolean; root: OcctNode; meshes: OcctMesh[] };
}

let reader: Promise<OcctImport> | undefined;

/**
 * The STEP reader that keeps names and colours (notes: replicad's build has no STEPCAFControl_Reader, so its
 * `importSTEP` drops them). Loaded once per thread, on first use (70–80 ms).
 */
function occt(): Promise<OcctImport> {
  if (!reader) {
    const require = createRequire(import.meta.url);
    reader = (require('occt-import-js') as () => Promise<OcctImport>)();
  }
  return reader;
}

/** A labelled part of a STEP file: name (from the node tree), colour ([r,g,b] 0-1 or null) and its mesh bounding box. */
export interface StepLabel {
  name: string;
  color: [number, number, number] | null;
  bbox: BBox;
}

const rgb = (c: number[] | null | undefined): [number, number, number] | null =>
  c && c.length >= 3 ? [round6(c[0]), round6(c[1]), round6(c[2])] : null;

/** The part colour: the mesh colour, else a colour every face shares, else null. */
function partColor(m: OcctMesh): [number, number, number] | null {
  if (m.color) return rgb(m.color);
  const faces = (m.brep_faces ?? []).map((f) => rgb(f.color));
  if (faces.length && faces.every((c) => c && faces[0] && c.join() === faces[0].join())) return faces[0];
  return null;
}

function meshBox(m: OcctMesh): BBox {
  const p = m.attributes.position.array;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3)
    for (let k = 0; k < 3; k++) ((min[k] = Math.min(min[k], p[i + k])), (max[k] = Math.max(max[k], p[i + k])));
  const r = (v: number[]) => v.map(round6) as [number, number, number];
  return { min: r(min), max: r(max), size: r([0, 1, 2].map((k) => max[k] - min[k])) };
}

/** Reads names and colours of the parts of a STEP file (tessellated coarsely: only boxes are needed). */
export async function stepLabels(bytes: Uint8Array): Promise<StepLabel[]> {
  const res = (await occt()).ReadStepFile(bytes, {
    linearUnit: 'millimeter',
    linearDeflectionType: 'absolute_value',
    linearDeflection: 0.5,
    angularDeflection: 0.5,
  });
  if (!res.success) return [];
  const names = new Map<number, string>();
  const walk = (n: OcctNode) => {
    for (const i of n.meshes) names.set(i, n.name || res.meshes[i].name || '');
    n.children.forEach(walk);
  };
  walk(res.root);
  return res.meshes.map((m, i) => ({
    name: m.name || names.get(i) || `part_${i + 1}`,
    color: partColor(m),
    bbox: meshBox(m),
  }));
}

/** Distance between two boxes' corners (how labels are matched to the solids replicad read). */
const boxDistance = (a: BBox, b: BBox) =>
  [0, 1, 2].reduce((s, k) => s + Math.abs(a.min[k] - b.min[k]) + Math.abs(a.max[k] - b.max[k]), 0);

/** Matches each solid to the label whose mesh box is closest to its exact box (tessellation stays within ~deflection). */
export function matchLabels(solids: AnyShape[], labels: StepLabel[]): (StepLabel | undefined)[] {
  const free = new Set(labels.map((_, i) => i));
  return solids.map((s) => {
    const box = boundingBox(s);
    let best: number | undefined;
    for (const i of free)
      if (best === undefined || boxDistance(box, labels[i].bbox) < boxDistance(box, labels[best].bbox)) best = i;
    if (best === undefined || boxDistance(box, labels[best].bbox) > 6 + 0.01 * box.size.reduce((a, b) => a + b, 0))
      return undefined;
    free.delete(best);
    return labels[best];
  });
}
