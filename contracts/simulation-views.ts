import { z } from 'zod';
import { MeshConvergenceRecordSchema } from './simulation.ts';
import { AnalysedGeometrySchema, ItemKeySchema, ItemRefSchema, SimResultListingEntrySchema } from './twin.ts';

/**
 * Analysed geometry of a listed result: the pinned node, revision, name and hash plus the spec's "Analysed ref"
 * (key, ref, current: the pinned revision is still its item's head). key and ref are null for a non-item node.
 */
export const AnalysedGeometryViewSchema = AnalysedGeometrySchema.extend({
  key: ItemKeySchema.nullable(),
  ref: ItemRefSchema.nullable(),
  current: z.boolean(),
});
export type AnalysedGeometryView = z.infer<typeof AnalysedGeometryViewSchema>;

/**
 * Entry of `GET /v1/simulation/results` (SPEC "Simulation result listing entry"): the recorded numbers ride along
 * (loose), then the spec's camelCase fields, plus name, project, time, staleness and the field's hash and size.
 * A mesh-convergence value that is not the spec's record is passed through as recorded.
 */
export const SimResultEntrySchema = SimResultListingEntrySchema.extend({
  name: z.string(),
  project_id: z.string().nullable(),
  created_at: z.string(),
  stale: z.boolean(),
  staleReason: z.string().nullable(),
  fieldContentHash: z.string().nullable(),
  fieldSizeBytes: z.number().int().nullable(),
  analysedGeometry: AnalysedGeometryViewSchema.nullable(),
  meshConvergence: z.union([MeshConvergenceRecordSchema, z.record(z.string(), z.unknown())]).nullable(),
});
export type SimResultEntry = z.infer<typeof SimResultEntrySchema>;

/** `GET /v1/simulation/results?project_id=&limit=&offset=`: newest first. */
export const SimResultListSchema = z.object({
  results: z.array(SimResultEntrySchema),
  total: z.number().int().min(0),
  /** With a project filter: the items left out because they record no project (as the approvals list). */
  unscoped_count: z.number().int().min(0).default(0),
});
export type SimResultList = z.infer<typeof SimResultListSchema>;

/** A reusable load case (table simulation_load_cases): boundary conditions as a free object under `spec`. */
export const LoadCaseSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  name: z.string(),
  spec: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type LoadCase = z.infer<typeof LoadCaseSchema>;

/** `POST /v1/simulation/load-cases` body: name required; spec (fixtures, loads, material, ...) default empty. */
export const LoadCaseCreateSchema = z.object({
  name: z.string().trim().min(1).max(300),
  project_id: z.string().min(1).max(200).nullable().optional(),
  spec: z.record(z.string(), z.unknown()).default({}),
});
export type LoadCaseCreate = z.infer<typeof LoadCaseCreateSchema>;

/** `GET /v1/simulation/load-cases?project_id=`: newest first. */
export const LoadCaseListSchema = z.object({ load_cases: z.array(LoadCaseSchema), total: z.number().int().min(0) });
export type LoadCaseList = z.infer<typeof LoadCaseListSchema>;
