import { z } from 'zod';

const Ids = z.instanceof(Int32Array);
const Vec3 = z.tuple([z.number(), z.number(), z.number()]);

/** A node set by `.frd`/`.inp` node ids, with the label its marker shows. */
export const NodeSetRefSchema = z.object({ label: z.string().min(1), nodeIds: Ids });

/** Input of the `buildField` worker task (STYLE R5: structured-cloneable, zod-validated). */
export const BuildFieldInputSchema = z.object({
  frdPath: z.string().min(1),
  /** Unset: detected from the blocks (NDTEMP only: thermal; modes: modal; else static). */
  analysisType: z.enum(['static_stress', 'modal', 'thermal']).optional(),
  /** Where the gzipped payload is written; null builds it without writing. */
  outPath: z.string().min(1).nullable(),
  capBytes: z.number().int().positive(),
  fixtures: z.array(NodeSetRefSchema).default([]),
  loads: z.array(NodeSetRefSchema.extend({ vector: Vec3, unit: z.string() })).default([]),
  /** Element sets whose max von Mises is reported per body. */
  bodies: z.array(z.object({ name: z.string(), elementIds: Ids })).default([]),
  /** Node sets whose mean displacement / temperature is reported (the load set's mean UZ is the tip deflection). */
  probes: z.array(z.object({ name: z.string(), nodeIds: Ids })).default([]),
});
export type BuildFieldInput = z.input<typeof BuildFieldInputSchema>;

/** Input of the `probeCantilever` worker task: a beam along `axis`, clamped at its low end, loaded along `loadAxis`. */
export const ProbeInputSchema = z.object({
  frdPath: z.string().min(1),
  axis: z.enum(['x', 'y', 'z']).default('x'),
  loadAxis: z.enum(['x', 'y', 'z']).default('z'),
  stationMm: z.number().nullable().default(null),
});
export type ProbeInput = z.input<typeof ProbeInputSchema>;

/** Input of the `prepareDeck` worker task: the mesh, what to solve, where to write the deck. */
export const PrepareDeckInputSchema = z.object({
  meshPath: z.string().min(1),
  deckPath: z.string().min(1),
  analysis: z.enum(['static_stress', 'modal', 'thermal']),
  material: z.object({
    name: z.string(),
    youngs_modulus_mpa: z.number().positive(),
    poisson_ratio: z.number().gt(-1).lt(0.5),
    density_t_mm3: z.number().positive(),
    conductivity: z.number().positive(),
    specific_heat: z.number().positive(),
  }),
  fixedSet: z.string().min(1),
  loadSet: z.string().min(1).nullable(),
  forceN: Vec3.nullable(),
  numModes: z.number().int().min(1).max(100),
  sinkTempC: z.number(),
  powerW: z.number(),
  maxNodes: z.number().int().positive(),
});
export type PrepareDeckInput = z.input<typeof PrepareDeckInputSchema>;

/** Input of the `meshQuality` worker task. */
export const MeshQualityInputSchema = z.object({ meshPath: z.string().min(1), maxAspectRatio: z.number().positive() });
export type MeshQualityInput = z.input<typeof MeshQualityInputSchema>;

/** Input of the `namedFaces` worker task: a gmsh `.inp` with surface elements per face, and where to write the solver mesh. */
export const NamedFacesInputSchema = z.object({
  rawMeshPath: z.string().min(1),
  meshPath: z.string().min(1).nullable(),
});
export type NamedFacesInput = z.input<typeof NamedFacesInputSchema>;

/** Input of the `readSets` worker task. */
export const ReadSetsInputSchema = z.object({ meshPath: z.string().min(1), names: z.array(z.string().min(1)) });
export type ReadSetsInput = z.input<typeof ReadSetsInputSchema>;

/** A refusal a worker returns instead of throwing (errors lose their class crossing threads). */
export type TaskFailure = { ok: false; kind: 'invalid_arguments' | 'tool_error'; message: string };
