import * as replicad from 'replicad';
import type { Shape3D } from 'replicad';
import type { ExportModelInput } from '../../../contracts/cad-session.ts';
import { KernelArgumentError } from '../errors.ts';
import { readShape, writeStepParts, type StepPart } from '../formats.ts';
import { oc } from '../kernel.ts';
import { propertiesOf, type BBox } from '../measure.ts';
import type { DocObject, SessionDoc } from './doc.ts';

type RGB = [number, number, number];

/** Display colours of common materials (0-1); a material not listed here leaves its part uncoloured (SPEC rule 7). */
export const MATERIAL_COLORS: Record<string, RGB> = {
  steel: [0.62, 0.64, 0.66],
  stainless_steel: [0.75, 0.76, 0.78],
  aluminium: [0.77, 0.79, 0.82],
  aluminium_6061: [0.77, 0.79, 0.82],
  brass: [0.8, 0.62, 0.25],
  copper: [0.72, 0.45, 0.2],
  titanium: [0.55, 0.55, 0.58],
  cast_iron: [0.35, 0.35, 0.37],
  abs: [0.15, 0.15, 0.15],
  pla: [0.9, 0.9, 0.88],
  nylon: [0.93, 0.92, 0.88],
  rubber: [0.1, 0.1, 0.1],
  fr4: [0.2, 0.45, 0.2],
};

/** A material's colour by name (case, spaces, hyphens and the US spelling of aluminium folded), or undefined. */
export function materialColor(name: string): RGB | undefined {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/^aluminum/, 'aluminium');
  return MATERIAL_COLORS[key];
}

/** A colour given as [r,g,b] in 0-1 or 0-255 (any component above 1 means 0-255). */
export const normalizeColor = (c: number[]): RGB =>
  c.some((v) => v > 1) ? (c.map((v) => v / 255) as RGB) : (c.slice(0, 3) as RGB);

/**
 * The colour of one part (SPEC rule 7): part_materials first, then color or material (an explicit color beats
 * material), then the colour recorded at import; the first that applies decides, and an unknown material leaves
 * the part uncoloured.
 */
export function partColor(
  o: Pick<DocObject, 'id' | 'name' | 'importColor'>,
  input: ExportModelInput,
): { color: RGB | null; source: string } {
  const pm = input.part_materials ?? {};
  const own = pm[o.name] ?? pm[o.id];
  if (own !== undefined)
    return {
      color: materialColor(own) ?? null,
      source: materialColor(own) ? `part_materials:${own}` : `unknown_material:${own}`,
    };
  if (input.color) return { color: normalizeColor(input.color), source: 'color' };
  if (input.material !== undefined)
    return {
      color: materialColor(input.material) ?? null,
      source: materialColor(input.material) ? `material:${input.material}` : `unknown_material:${input.material}`,
    };
  if (o.importColor) return { color: o.importColor, source: 'import' };
  return { color: null, source: 'none' };
}

/** The solids an export covers: one solid, an assembly's parts, or every solid of the session. */
function exported(doc: SessionDoc, objId?: string): { key: string; objects: (DocObject & { shape: Shape3D })[] } {
  if (objId) {
    const o = doc.get(objId, ['solid', 'body', 'assembly']);
    if (o.kind === 'assembly') return { key: o.id, objects: o.parts!.map((id) => doc.solid(id)) };
    return { key: o.id, objects: [doc.solid(o.id)] };
  }
  const objects = [...doc.objects.values()].filter(
    (o): o is DocObject & { shape: Shape3D } => o.kind === 'solid' && !!o.shape,
  );
  if (!objects.length) throw new KernelArgumentError('the session has no solid to export');
  return { key: 'model', objects };
}

const boxesDiffer = (a: BBox, b: BBox) =>
  [0, 1, 2].some(
    (k) =>
      Math.abs(a.min[k] - b.min[k]) > 1e-4 * (a.size[k] + 1) || Math.abs(a.max[k] - b.max[k]) > 1e-4 * (a.size[k] + 1),
  );

/** A copy of a shape with its location baked into the geometry (no placement left for a STEP writer to carry). */
function baked(shape: Shape3D): Shape3D {
  const k = oc();
  const loc = shape.wrapped.Location();
  const bare = shape.wrapped.Located(new k.TopLoc_Location(), false);
  const algo = new k.BRepBuilderAPI_Transform(bare, loc.Transformation(), true, false);
  try {
    return replicad.cast(algo.Shape()) as Shape3D;
  } finally {
    algo.delete();
  }
}

/** Measures a compound of the shapes (copies; the originals stay in the document). */
function measureAll(shapes: Shape3D[]) {
  const c = replicad.makeCompound(shapes.map((s) => s.clone()));
  try {
    return propertiesOf(c);
  } finally {
    c.delete();
  }
}

/**
 * export_model (SPEC rule 7): writes the solids as one STEP with part names and colours, then reads the written
 * bytes back to measure stored_properties; when the stored bounding box differs from the recorded one (a placement
 * the writer kept as an axis transform) the placements are baked into the geometry and the file is written again.
 */
export async function exportModel(doc: SessionDoc, input: ExportModelInput) {
  const { key, objects } = exported(doc, input.obj_id);
  const colors = objects.map((o) => partColor(o, input));
  const recorded = measureAll(objects.map((o) => o.shape));
  const write = (shapes: Shape3D[]) =>
    writeStepParts(shapes.map((shape, i): StepPart => ({ shape, name: objects[i].name, color: colors[i].color })));
  const storedOf = async (bytes: Uint8Array) => {
    const back = await readShape(bytes, 'step', 'export');
    try {
      return propertiesOf(back);
    } finally {
      back.delete();
    }
  };
  let bytes = write(objects.map((o) => o.shape));
  let stored = await storedOf(bytes);
  let placementBaked = false;
  if (boxesDiffer(stored.bounding_box, recorded.bounding_box)) {
    const flat = objects.map((o) => baked(o.shape));
    bytes = write(flat);
    stored = await storedOf(bytes);
    flat.forEach((s) => s.delete());
    placementBaked = true;
  }
  return {
    obj_id: key,
    step_bytes: bytes,
    size_bytes: bytes.length,
    volume_mm3: recorded.volume_mm3,
    surface_area_mm2: recorded.surface_area_mm2,
    bounding_box: recorded.bounding_box,
    stored_properties: {
      volume_mm3: stored.volume_mm3,
      surface_area_mm2: stored.surface_area_mm2,
      center_of_mass: stored.center_of_mass,
      bounding_box: stored.bounding_box,
    },
    placement_baked: placementBaked,
    parts: objects.map((o, i) => ({
      obj_id: o.id,
      name: o.name,
      color: colors[i].color,
      color_source: colors[i].source,
    })),
  };
}
