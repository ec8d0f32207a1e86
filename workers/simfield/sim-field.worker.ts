import { prepareDeck as prepare, type PreparedDeck } from './deck.ts';
import { buildField as build, type BuildFieldResult } from './field-task.ts';
import fs from 'node:fs';
import { InpError, readNodeSets } from './inp-parse.ts';
import { meshQuality as quality, type MeshQuality } from './mesh-quality.ts';
import { namedFaces as faces, type NamedFaces } from './named-faces.ts';
import { probeFrd as probe, type Probe } from './probe.ts';
import {
  BuildFieldInputSchema,
  MeshQualityInputSchema,
  NamedFacesInputSchema,
  PrepareDeckInputSchema,
  ProbeInputSchema,
  ReadSetsInputSchema,
  type TaskFailure,
} from './schemas.ts';

/**
 * The piscina entry of the solver adapter's pool (STYLE R5): named tasks, each a pure function of a structured-cloneable
 * input validated here. Refusals come back as `{ok: false, kind, message}` because thrown errors lose their class
 * crossing the thread boundary.
 */

const refuse = (err: unknown): TaskFailure => ({
  ok: false,
  kind: 'tool_error',
  message: `invalid worker task input: ${(err as Error).message}`,
});

/** Builds the CalculiX deck of a mesh plus load case. */
export function prepareDeck(raw: unknown): PreparedDeck | TaskFailure {
  const p = PrepareDeckInputSchema.safeParse(raw);
  return p.success ? prepare(p.data) : refuse(p.error);
}

/** Summarises a solved `.frd` and builds its `service.sim_field` payload. */
export function buildField(raw: unknown): BuildFieldResult {
  const p = BuildFieldInputSchema.safeParse(raw);
  return p.success ? build(p.data) : refuse(p.error);
}

/** Mesh quality of an `.inp` (solver.validate_mesh). */
export function meshQuality(raw: unknown): MeshQuality | TaskFailure {
  const p = MeshQualityInputSchema.safeParse(raw);
  return p.success ? quality(p.data) : refuse(p.error);
}

/** Face naming of a gmsh mesh, optionally writing the solver mesh (cadkernel.generate_mesh, named faces). */
export function namedFaces(raw: unknown): NamedFaces | TaskFailure {
  const p = NamedFacesInputSchema.safeParse(raw);
  return p.success ? faces(p.data) : refuse(p.error);
}

/** Beam-theory probe points of a solved `.frd` (the analytical cross-checks). */
export function probeFrd(raw: unknown): Probe | TaskFailure {
  const p = ProbeInputSchema.safeParse(raw);
  return p.success ? probe(p.data) : refuse(p.error);
}

/** Node ids of named sets of a mesh (markers for `extract_results`). */
export function readSets(
  raw: unknown,
): { ok: true; sets: Record<string, Int32Array>; missing: string[] } | TaskFailure {
  const p = ReadSetsInputSchema.safeParse(raw);
  if (!p.success) return refuse(p.error);
  try {
    return { ok: true, ...readNodeSets(fs.readFileSync(p.data.meshPath, 'latin1'), p.data.names) };
  } catch (err) {
    return {
      ok: false,
      kind: err instanceof InpError ? 'tool_error' : 'invalid_arguments',
      message: (err as Error).message,
    };
  }
}
