import { z } from 'zod';
import { IntentModelSchema } from './flows.ts';

/** A load named in a request: magnitude in newtons, where it acts, its direction when stated. */
export const IntentLoadSchema = z.object({
  magnitude_n: z.number(),
  location: z.string(),
  direction: z.string().nullable(),
  text: z.string(),
});

/** A material the request names, with the properties the flow's checks need (from the material table). */
export const IntentMaterialSchema = z.object({
  name: z.string(),
  solver_material: z.string(),
  yield_mpa: z.number(),
  modulus_mpa: z.number(),
  poisson: z.number(),
  density_kg_m3: z.number(),
});

/** The quantities the intent compiler extracts deterministically from the request text and context. */
export const IntentParametersSchema = z.object({
  dimensions_mm: z.array(z.number().positive()).nullable(),
  loads: z.array(IntentLoadSchema),
  material: IntentMaterialSchema.nullable(),
  safety_factor: z.number().positive().nullable(),
  budget: z.object({ amount: z.number(), currency: z.string() }).nullable(),
});
export type IntentParameters = z.infer<typeof IntentParametersSchema>;

/** The compiled intent: the spec's intent model plus the extracted parameters and the facts frozen with the flow. */
export const CompiledIntentSchema = IntentModelSchema.extend({
  parameters: IntentParametersSchema,
  facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type CompiledIntent = z.infer<typeof CompiledIntentSchema>;

/** `POST /v1/design-flows/intent` and `flow.compile_intent` input. */
export const CompileIntentRequestSchema = z.object({
  request: z.string().min(1).max(20_000),
  context: z.record(z.string(), z.unknown()).default({}),
});
