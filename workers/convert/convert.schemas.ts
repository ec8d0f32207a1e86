import { z } from 'zod';

/** Formats the converter reads (SPEC "Conversion result": STEP or IGES). */
export const CadFormatSchema = z.enum(['step', 'iges']);
export type CadFormat = z.infer<typeof CadFormatSchema>;

/** One conversion task: the source bytes and their format (structured-cloneable, STYLE R5). */
export const ConvertTaskSchema = z.object({
  source: z
    .custom<Uint8Array>((v) => v instanceof Uint8Array, { message: 'expected bytes' })
    .refine((b) => b.byteLength > 0, { message: 'the file is empty' }),
  format: CadFormatSchema,
});
export type ConvertTask = z.infer<typeof ConvertTaskSchema>;

/** A node of the part tree: its name, the glTF meshes (parts) it holds, its children. */
export const PartNodeSchema = z.object({
  name: z.string(),
  meshes: z.array(z.number().int()),
  get children() {
    return z.array(PartNodeSchema);
  },
});
export type PartNode = z.infer<typeof PartNodeSchema>;

/** One material: a distinct face or part colour (linear RGB 0..1), and how many parts and triangles use it. */
export const ConversionMaterialSchema = z.object({
  name: z.string(),
  color: z.array(z.number()).length(3),
  parts: z.number().int(),
  triangles: z.number().int(),
});

export type ConversionMaterial = z.infer<typeof ConversionMaterialSchema>;

/** Figures of one conversion; the bounding box is in millimetres (the GLB itself is in metres). */
export const ConversionStatsSchema = z.object({
  format: CadFormatSchema,
  source_bytes: z.number().int(),
  parts: z.number().int(),
  nodes: z.number().int(),
  meshes: z.number().int(),
  materials: z.number().int(),
  vertices: z.number().int(),
  triangles: z.number().int(),
  bbox_min_mm: z.array(z.number()).length(3),
  bbox_max_mm: z.array(z.number()).length(3),
  glb_bytes: z.number().int(),
  read_ms: z.number(),
  build_ms: z.number(),
  linear_deflection_mm: z.number(),
  angular_deflection_rad: z.number(),
});

export type ConversionStats = z.infer<typeof ConversionStatsSchema>;
/** The figures the GLB builder counts (the task adds format, sizes, timings and settings). */
export type MeshCounts = Pick<
  ConversionStats,
  'parts' | 'nodes' | 'meshes' | 'materials' | 'vertices' | 'triangles' | 'bbox_min_mm' | 'bbox_max_mm' | 'glb_bytes'
>;

/** `metadata` of the conversion result (SPEC "Conversion result": part tree, stats, materials). */
export const ConversionMetadataSchema = z.object({
  parts: PartNodeSchema,
  stats: ConversionStatsSchema,
  materials: z.array(ConversionMaterialSchema),
});
export type ConversionMetadata = z.infer<typeof ConversionMetadataSchema>;

/** What a task answers: the GLB bytes and the metadata, or a refusal naming why the file could not be read. */
export const ConvertOutcomeSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    glb: z.custom<Uint8Array>((v) => v instanceof Uint8Array),
    metadata: ConversionMetadataSchema,
  }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type ConvertOutcome = z.infer<typeof ConvertOutcomeSchema>;
