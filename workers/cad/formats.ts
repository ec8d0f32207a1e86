import * as replicad from 'replicad';
import type { AnyShape, Shape3D } from 'replicad';
import { KernelArgumentError, KernelError, step, stepAsync } from './errors.ts';
import { oc } from './kernel.ts';

/** Export formats of `export_geometry` (SPEC catalogue: STEP, STL, OBJ, BREP, AMF, SVG). */
export const EXPORT_FORMATS = ['step', 'stl', 'obj', 'brep', 'amf', 'svg'] as const;
/** One of EXPORT_FORMATS. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Tessellation used for STL, OBJ and AMF (absolute chordal deviation in mm, angle in radians). */
export interface MeshQuality {
  tolerance: number;
  angular_tolerance: number;
}
const DEFAULT_MESH: MeshQuality = { tolerance: 0.01, angular_tolerance: 0.1 };

/** The format of a file by its extension; undefined for anything the kernel cannot read. */
export function formatOfPath(p: string): 'step' | 'brep' | 'stl' | undefined {
  const ext = p.toLowerCase().split('.').pop();
  if (ext === 'step' || ext === 'stp') return 'step';
  if (ext === 'brep' || ext === 'brp') return 'brep';
  if (ext === 'stl') return 'stl';
  return undefined;
}

/** Reads a STEP, BREP or STL file into a shape (STEP units are converted to mm by the reader). */
export async function readShape(bytes: Uint8Array, format: 'step' | 'brep' | 'stl', name = 'input'): Promise<AnyShape> {
  if (format === 'brep')
    return step(`reading BREP ${name}`, () => replicad.deserializeShape(Buffer.from(bytes).toString('utf8')));
  if (format === 'stl')
    return stepAsync(`reading STL ${name}`, () => replicad.importSTL(new Blob([new Uint8Array(bytes)])));
  const head = Buffer.from(bytes.subarray(0, 64)).toString('latin1');
  if (!head.includes('ISO-10303-21'))
    throw new KernelArgumentError(`${name} is not a STEP file (no ISO-10303-21 header)`);
  return stepAsync(`reading STEP ${name}`, () => replicad.importSTEP(new Blob([new Uint8Array(bytes)])));
}

/** A part of a STEP assembly: a label and an optional colour ([r,g,b] 0-1; null leaves the part uncoloured). */
export interface StepPart {
  shape: AnyShape;
  name: string;
  color?: [number, number, number] | null;
}

/**
 * Writes parts as one STEP file with names and, only where given, colours. replicad's `exportSTEP` paints every part
 * red when no colour is given, which would break "an unknown material leaves the part uncoloured" (SPEC rule 7).
 */
export function writeStepParts(parts: StepPart[]): Uint8Array {
  const k = oc();
  const gc: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(v: T): T => (gc.push(v), v);
  try {
    const doc = keep(new k.TDocStd_Document(keep(new k.TCollection_ExtendedString('XmlOcaf', true))));
    k.XCAFDoc_ShapeTool.SetAutoNaming(false);
    const main = doc.Main();
    const tool = k.XCAFDoc_DocumentTool.ShapeTool(main);
    const colors = k.XCAFDoc_DocumentTool.ColorTool(main);
    for (const part of parts) {
      const label = tool.NewShape();
      tool.SetShape(label, part.shape.wrapped);
      k.TDataStd_Name.Set(label, keep(new k.TCollection_ExtendedString(part.name, true)));
      if (part.color)
        colors.SetColor(
          label,
          keep(new k.Quantity_ColorRGBA(part.color[0], part.color[1], part.color[2], 1)),
          k.XCAFDoc_ColorType.XCAFDoc_ColorSurf,
        );
    }
    tool.UpdateAssemblies();
    const session = keep(new k.XSControl_WorkSession());
    const writer = keep(new k.STEPCAFControl_Writer(session, false));
    writer.SetColorMode(true);
    writer.SetNameMode(true);
    k.Interface_Static.SetIVal('write.surfacecurve.mode', 1);
    k.Interface_Static.SetIVal('write.precision.mode', 0);
    k.Interface_Static.SetIVal('write.step.assembly', 2);
    k.Interface_Static.SetIVal('write.step.schema', 5);
    const file = `/export-${Math.random().toString(36).slice(2)}.step`;
    if (!writer.Perform(doc, file.slice(1), keep(new k.Message_ProgressRange())))
      throw new KernelError('the STEP writer failed');
    const out = k.FS.readFile(file) as Uint8Array;
    k.FS.unlink(file);
    return out;
  } finally {
    for (const g of gc.reverse()) g.delete();
  }
}

function meshOf(shape: AnyShape, q: MeshQuality) {
  return step('tessellation', () => shape.mesh({ tolerance: q.tolerance, angularTolerance: q.angular_tolerance }));
}

function toObj(shape: AnyShape, q: MeshQuality): string {
  const m = meshOf(shape, q);
  const lines = ['# exported by the service CAD kernel (mm)'];
  for (let i = 0; i < m.vertices.length; i += 3)
    lines.push(`v ${m.vertices[i]} ${m.vertices[i + 1]} ${m.vertices[i + 2]}`);
  for (let i = 0; i < m.normals.length; i += 3)
    lines.push(`vn ${m.normals[i]} ${m.normals[i + 1]} ${m.normals[i + 2]}`);
  for (const g of m.faceGroups) {
    lines.push(`g face_${g.faceId}`);
    for (let t = g.start; t < g.start + g.count; t += 3) {
      const [a, b, c] = [m.triangles[t] + 1, m.triangles[t + 1] + 1, m.triangles[t + 2] + 1];
      lines.push(`f ${a}//${a} ${b}//${b} ${c}//${c}`);
    }
  }
  return lines.join('\n') + '\n';
}

function toAmf(shape: AnyShape, q: MeshQuality): string {
  const m = meshOf(shape, q);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<amf unit="millimeter" version="1.1">',
    '<object id="0"><mesh><vertices>',
  ];
  for (let i = 0; i < m.vertices.length; i += 3) {
    out.push(
      `<vertex><coordinates><x>${m.vertices[i]}</x><y>${m.vertices[i + 1]}</y><z>${m.vertices[i + 2]}</z></coordinates></vertex>`,
    );
  }
  out.push('</vertices><volume>');
  for (let t = 0; t < m.triangles.length; t += 3)
    out.push(
      `<triangle><v1>${m.triangles[t]}</v1><v2>${m.triangles[t + 1]}</v2><v3>${m.triangles[t + 2]}</v3></triangle>`,
    );
  out.push('</volume></mesh></object>', '</amf>');
  return out.join('\n') + '\n';
}

function toSvg(shape: AnyShape, view: string): string {
  const { visible, hidden } = step(`SVG projection (${view})`, () =>
    replicad.drawProjection(shape, view as replicad.ProjectionPlane),
  );
  const paths = [visible, hidden].map((d) => d.toSVGPaths().flat(2) as string[]);
  const box = visible.toSVGViewBox(5);
  const body = [
    ...paths[0].map(
      (d) => `<path d="${d}" fill="none" stroke="black" stroke-width="0.3" vector-effect="non-scaling-stroke"/>`,
    ),
    ...paths[1].map(
      (d) =>
        `<path d="${d}" fill="none" stroke="grey" stroke-width="0.2" stroke-dasharray="2,1" vector-effect="non-scaling-stroke"/>`,
    ),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box}" data-view="${view}">\n${body.join('\n')}\n</svg>\n`;
}

/** Serialises a shape in one of the export formats; options: mesh quality, SVG view (front by default), STEP part name. */
export async function writeShape(
  shape: AnyShape,
  format: ExportFormat,
  opts: { mesh?: Partial<MeshQuality>; view?: string; name?: string } = {},
): Promise<Uint8Array> {
  const q = { ...DEFAULT_MESH, ...opts.mesh };
  switch (format) {
    case 'step':
      return step('STEP export', () => writeStepParts([{ shape, name: opts.name ?? 'part' }]));
    case 'stl': {
      const blob = step('STL export', () =>
        shape.blobSTL({ binary: true, tolerance: q.tolerance, angularTolerance: q.angular_tolerance }),
      );
      return new Uint8Array(await blob.arrayBuffer());
    }
    case 'brep':
      return Buffer.from(
        step('BREP export', () => shape.serialize()),
        'utf8',
      );
    case 'obj':
      return Buffer.from(toObj(shape, q), 'utf8');
    case 'amf':
      return Buffer.from(toAmf(shape, q), 'utf8');
    case 'svg':
      return Buffer.from(toSvg(shape, opts.view ?? 'front'), 'utf8');
  }
}

/** A 3D shape or a tool error naming what the file held instead. */
export function as3d(shape: AnyShape, name: string): Shape3D {
  if (!replicad.isShape3D(shape))
    throw new KernelArgumentError(`${name} holds a ${shape.constructor.name}, not a solid`);
  return shape;
}
