import fs from 'node:fs/promises';
import path from 'node:path';
import * as replicad from 'replicad';
import type { AnyShape, Shape3D } from 'replicad';
import { booleanChecked, type BooleanKind } from './check.ts';
import { KernelArgumentError } from './errors.ts';
import {
  as3d,
  formatOfPath,
  readShape,
  writeShape,
  writeStepParts,
  type ExportFormat,
  type MeshQuality,
} from './formats.ts';
import { propertiesOf, type ShapeProperties } from './measure.ts';
import { buildPart, swap, type HoleSpec } from './parametric.ts';

/** A written CAD file: absolute path (the host makes it workspace-relative), size and the solid's properties. */
export interface WrittenShape extends ShapeProperties {
  path: string;
  format: ExportFormat;
  size_bytes: number;
}

/** Reads a STEP/BREP/STL file the host already resolved inside the workspace. */
export async function loadShape(abs: string, argName: string): Promise<AnyShape> {
  const format = formatOfPath(abs);
  if (!format)
    throw new KernelArgumentError(
      `${argName} ${path.basename(abs)} is not a STEP, BREP or STL file (by its extension)`,
      { [argName]: abs },
    );
  const bytes = await fs.readFile(abs).catch((err: NodeJS.ErrnoException) => {
    throw new KernelArgumentError(`${argName} ${path.basename(abs)} cannot be read: ${err.code ?? err.message}`, {
      [argName]: abs,
    });
  });
  return readShape(bytes, format, path.basename(abs));
}

/** The export format of an output path by its extension (STEP when it has none of the known ones). */
export function formatOfOutput(abs: string): ExportFormat {
  const ext = path.extname(abs).slice(1).toLowerCase();
  if (ext === 'stp') return 'step';
  return (['step', 'stl', 'obj', 'brep', 'amf', 'svg'] as const).find((f) => f === ext) ?? 'step';
}

/** Writes a shape to `abs` in `format` and measures it. */
export async function saveShape(
  shape: AnyShape,
  abs: string,
  format = formatOfOutput(abs),
  opts: { mesh?: Partial<MeshQuality>; view?: string; name?: string } = {},
): Promise<WrittenShape> {
  const bytes = await writeShape(shape, format, opts);
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.writeFile(abs, bytes);
  return { path: abs, format, size_bytes: bytes.length, ...propertiesOf(shape) };
}

/** `create_parametric`: builds the part and writes it (STEP unless the output path says otherwise). */
export async function createParametric(input: {
  shape_type: string;
  parameters: Record<string, number>;
  holes?: HoleSpec[];
  output: string;
}) {
  const { shape, parameters_used } = buildPart(input.shape_type, input.parameters, input.holes ?? []);
  try {
    return {
      ...(await saveShape(shape, input.output, undefined, { name: input.shape_type })),
      parameters_used,
      shape_type: input.shape_type,
    };
  } finally {
    shape.delete();
  }
}

/** `boolean_operation`: target and tool files, union/subtract/intersect, checked with the raw-boolean fallback. */
export async function booleanFiles(input: { target: string; tool: string; operation: BooleanKind; output: string }) {
  const a = as3d(await loadShape(input.target, 'target_path'), 'target_path');
  const b = as3d(await loadShape(input.tool, 'tool_path'), 'tool_path');
  const [va, vb] = [replicad.measureVolume(a), replicad.measureVolume(b)];
  const out = booleanChecked(a, b, input.operation);
  try {
    const written = await saveShape(out, input.output, undefined, { name: input.operation });
    return { ...written, operation: input.operation, target_volume_mm3: va, tool_volume_mm3: vb };
  } finally {
    for (const s of [a, b, out]) s.delete();
  }
}

/** `get_properties`: measures a file in the global frame. */
export async function fileProperties(input: { input: string }) {
  const shape = await loadShape(input.input, 'file_path');
  try {
    return propertiesOf(shape);
  } finally {
    shape.delete();
  }
}

/** `export_geometry`: converts a file to another format. */
export async function exportFile(input: {
  input: string;
  format: ExportFormat;
  output: string;
  mesh?: Partial<MeshQuality>;
  view?: string;
}) {
  const shape = await loadShape(input.input, 'file_path');
  try {
    return await saveShape(shape, input.output, input.format, {
      mesh: input.mesh,
      view: input.view,
      name: path.basename(input.input).replace(/\.[^.]+$/, ''),
    });
  } finally {
    shape.delete();
  }
}

/** One part of an assembly (SPEC "Assembly part"). */
export interface AssemblyPartInput {
  name: string;
  kind: string;
  parameters: Record<string, number>;
  position?: number[] | null;
  fillet?: number | null;
  chamfer?: number | null;
  holes?: HoleSpec[];
}

/** Builds one assembly part: primitive, fillet or chamfer before holes, holes, then its position. */
export function buildAssemblyPart(p: AssemblyPartInput): Shape3D {
  const params: Record<string, number> = {
    ...p.parameters,
    ...(p.fillet ? { fillet: p.fillet } : {}),
    ...(p.chamfer ? { chamfer: p.chamfer } : {}),
  };
  for (const k of ['x', 'y', 'z']) delete params[k];
  const { shape } = buildPart(p.kind, params, p.holes ?? []);
  const [x, y, z] = p.position ?? [0, 0, 0];
  return x || y || z ? shape.translate([x, y, z]) : shape;
}

/** Pairs of parts whose solids overlap (common volume above 1e-3 mm³), bounding boxes first to skip most pairs. */
export function interferences(
  parts: { name: string; shape: Shape3D }[],
): { a: string; b: string; volume_mm3: number }[] {
  const out: { a: string; b: string; volume_mm3: number }[] = [];
  const boxes = parts.map((p) => p.shape.boundingBox.bounds);
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if ([0, 1, 2].some((k) => a[1][k] <= b[0][k] || b[1][k] <= a[0][k])) continue;
      const common = parts[i].shape.intersect(parts[j].shape);
      const v = replicad.isShape3D(common) ? replicad.measureVolume(common) : 0;
      common.delete();
      if (v > 1e-3) out.push({ a: parts[i].name, b: parts[j].name, volume_mm3: Math.round(v * 1000) / 1000 });
    }
  }
  return out;
}

/** `create_assembly`: builds every part, writes one STEP with the part names, reports parts and interferences. */
export async function createAssemblyFile(input: { name: string; parts: AssemblyPartInput[]; output: string }) {
  const names = new Set<string>();
  for (const p of input.parts) {
    if (names.has(p.name))
      throw new KernelArgumentError(`two parts are named ${p.name}; part names must be unique`, { part: p.name });
    names.add(p.name);
  }
  const built: { name: string; shape: Shape3D }[] = [];
  try {
    for (const p of input.parts) built.push({ name: p.name, shape: buildAssemblyPart(p) });
    const bytes = writeStepParts(built.map((b) => ({ shape: b.shape, name: b.name })));
    await fs.mkdir(path.dirname(input.output), { recursive: true });
    await fs.writeFile(input.output, bytes);
    const whole = replicad.makeCompound(built.map((b) => b.shape.clone()));
    const total = propertiesOf(whole);
    whole.delete();
    const parts = built.map((b, i) => ({ name: b.name, kind: input.parts[i].kind, ...propertiesOf(b.shape) }));
    return {
      path: input.output,
      format: 'step' as const,
      size_bytes: bytes.length,
      name: input.name,
      part_count: parts.length,
      parts,
      bounding_box: total.bounding_box,
      volume_mm3: total.volume_mm3,
      interferences: interferences(built),
    };
  } finally {
    for (const b of built) b.shape.delete();
  }
}

/** `generate_enclosure`: an open box (floor + walls, optional corner radius) and a lid, written as a two-part STEP. */
export async function generateEnclosure(input: {
  inner_length: number;
  inner_width: number;
  inner_height: number;
  wall_thickness: number;
  corner_radius: number;
  lid: boolean;
  output: string;
}) {
  const { inner_length: l, inner_width: w, inner_height: h, wall_thickness: t, corner_radius: r } = input;
  const outer = (dx: number, dy: number, rr: number, height: number, z0: number) =>
    replicad
      .drawRoundedRectangle(dx, dy, rr > 0 ? rr : undefined)
      .sketchOnPlane('XY', z0)
      .extrude(height) as Shape3D;
  if (r > 0 && r >= Math.min(l, w) / 2 + t)
    throw new KernelArgumentError(`corner_radius ${r} is too large for a ${l} x ${w} mm enclosure`);
  let body = outer(l + 2 * t, w + 2 * t, r, h + t, 0);
  body = swap(body, booleanChecked(body, outer(l, w, Math.max(0, r - t), h + 1, t), 'subtract'));
  const parts = [{ name: 'base', shape: body }];
  if (input.lid) parts.push({ name: 'lid', shape: outer(l + 2 * t, w + 2 * t, r, t, h + t) });
  try {
    const bytes = writeStepParts(parts);
    await fs.mkdir(path.dirname(input.output), { recursive: true });
    await fs.writeFile(input.output, bytes);
    const measured = parts.map((p) => ({ name: p.name, ...propertiesOf(p.shape) }));
    const whole = replicad.makeCompound(parts.map((p) => p.shape.clone()));
    const box = propertiesOf(whole).bounding_box;
    whole.delete();
    return {
      path: input.output,
      format: 'step' as const,
      size_bytes: bytes.length,
      parts: measured,
      bounding_box: box,
      inner_volume_mm3: l * w * h,
    };
  } finally {
    for (const p of parts) p.shape.delete();
  }
}
