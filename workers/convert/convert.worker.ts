import { ConvertTaskSchema, type ConversionMetadata, type ConvertOutcome } from './convert.schemas.ts';
import { buildGlb } from './glb.ts';
import { heapBytes, loadOcct, type OcctParams } from './occt.ts';

/** Tessellation settings (cad-kernel.md: absolute deflection in mm; the cache key assumes they never change silently). */
export const TESSELLATION: OcctParams = {
  linearUnit: 'millimeter',
  linearDeflectionType: 'absolute_value',
  linearDeflection: 0.1,
  angularDeflection: 0.5,
};
/** Past this wasm heap size the thread's reader is replaced by a fresh instance (the heap never shrinks). */
const RECYCLE_HEAP_BYTES = 1024 * 1024 * 1024;

// One reader per thread, ready before the first task (piscina awaits the module's top level).
let occt = await loadOcct();

/**
 * Converts one STEP or IGES file to GLB (piscina task `convert`): read and tessellate with occt-import-js, build the GLB
 * with gltf-transform. A file the reader rejects or that holds no geometry is `{ok: false, reason}`, never a crash.
 */
export async function convert(input: unknown): Promise<ConvertOutcome> {
  const task = ConvertTaskSchema.parse(input);
  const t0 = performance.now();
  const read =
    task.format === 'step'
      ? occt.ReadStepFile(task.source, TESSELLATION)
      : occt.ReadIgesFile(task.source, TESSELLATION);
  const t1 = performance.now();
  try {
    const label = task.format === 'step' ? 'STEP' : 'IGES';
    if (!read.success || !read.root || !read.meshes)
      return { ok: false, reason: `the ${label} reader could not read the file` };
    if (read.meshes.length === 0 || read.meshes.every((m) => m.index.array.length === 0))
      return { ok: false, reason: `the ${label} file holds no geometry to tessellate` };
    const { glb, parts, materials, counts } = await buildGlb(read.root, read.meshes);
    const stats: ConversionMetadata['stats'] = {
      format: task.format,
      source_bytes: task.source.byteLength,
      ...counts,
      read_ms: Math.round(t1 - t0),
      build_ms: Math.round(performance.now() - t1),
      linear_deflection_mm: TESSELLATION.linearDeflection,
      angular_deflection_rad: TESSELLATION.angularDeflection,
    };
    return { ok: true, glb, metadata: { parts, stats, materials } };
  } finally {
    if (heapBytes(occt) > RECYCLE_HEAP_BYTES) occt = await loadOcct();
  }
}
