import { z } from 'zod';

/** A dot path into an object (`parameters.thickness_mm`, `max_von_mises.solid`); no brackets, no prototype keys. */
const DotPathSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/, 'a dot path of names (letters, digits, _)')
  .refine((p) => !p.split('.').some((k) => ['__proto__', 'prototype', 'constructor'].includes(k)), {
    message: 'names a prototype key',
  });

/**
 * Tools a design loop may run (README "Design loops"): stateless computations whose result scores an iteration. A loop
 * never runs a twin, flow, project or session tool, so approving it cannot write anything but its own iterations.
 */
export const LOOP_TOOL_PATTERN =
  /^(cadscript\.(create_parametric|get_properties)|solver\.[a-z_]+|circuit\.run_simulation)$/;

/**
 * What a design loop runs, recorded with `twin.record_document` (document_type `design_loop`, these as properties):
 * each iteration calls `tool` with `arguments`, `parameter` set to the next of `candidates`, and scores it by the number
 * at `metric` in the tool's result; the best score by `goal` is the winning iteration. A person approves each step.
 */
export const DesignLoopSpecSchema = z.object({
  tool: z
    .string()
    .regex(LOOP_TOOL_PATTERN, 'a cadscript.create_parametric/get_properties, solver.* or circuit.run_simulation tool'),
  arguments: z.record(z.string(), z.unknown()),
  parameter: DotPathSchema.describe('where the candidate goes in arguments'),
  candidates: z
    .array(z.union([z.number(), z.string().max(200)]))
    .min(1)
    .max(20),
  metric: DotPathSchema.describe("where the score is in the tool's result data"),
  goal: z.enum(['minimize', 'maximize']),
});
export type DesignLoopSpec = z.infer<typeof DesignLoopSpecSchema>;

/** A loop's state besides its spec: `iterating` while the next iteration runs, then `pending` for the next approval. */
export const DesignLoopStateSchema = z.object({
  status: z.enum(['pending', 'iterating', 'approved']),
  next_index: z.number().int().min(0),
  iterations: z.array(z.string()),
  winning_iteration: z.string().nullable(),
});

/** `twin.designLoopIterated`: the outcome of iteration `index` of a loop (a score, or why there is none). */
export const LoopIterationSchema = z.object({
  loop_id: z.string(),
  index: z.number().int().min(0),
  value: z.union([z.number(), z.string()]),
  score: z.number().nullable(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()),
  output_files: z.array(z.string()),
});
export type LoopIteration = z.infer<typeof LoopIterationSchema>;

/** `arguments` with the value at `path` replaced (a copy; missing objects on the way are created). */
export function withPath(args: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const out = structuredClone(args);
  const keys = path.split('.');
  let at: Record<string, unknown> = out;
  for (const k of keys.slice(0, -1)) {
    const next = at[k];
    at = (at[k] = next && typeof next === 'object' && !Array.isArray(next) ? { ...next } : {}) as Record<
      string,
      unknown
    >;
  }
  at[keys[keys.length - 1]] = value;
  return out;
}

/** The finite number at `path` in `data`, or null. */
export function numberAt(data: unknown, path: string): number | null {
  let at: unknown = data;
  for (const k of path.split('.')) {
    if (!at || typeof at !== 'object' || !Object.hasOwn(at, k)) return null;
    at = (at as Record<string, unknown>)[k];
  }
  return typeof at === 'number' && Number.isFinite(at) ? at : null;
}

/** The index of the best score by `goal` (first of equals), or -1 when none scored. */
export function bestOf(scores: (number | null)[], goal: DesignLoopSpec['goal']): number {
  let best = -1;
  scores.forEach((s, i) => {
    if (s === null) return;
    const b = best < 0 ? null : scores[best]!;
    if (b === null || (goal === 'minimize' ? s < b : s > b)) best = i;
  });
  return best;
}

/** A loop that runs its own iterations: it was recorded with a spec (README "Design loops"). */
export const isSpecLoop = (n: { properties: Record<string, unknown> }) =>
  DesignLoopSpecSchema.safeParse(n.properties).success;

/** What the approvals queue shows of a spec loop: what it runs, the candidates left and the scores so far. */
export function loopSummary(p: Record<string, unknown>): Record<string, unknown> {
  const spec = DesignLoopSpecSchema.parse(p);
  const next = Number(p.next_index ?? 0);
  return {
    tool: spec.tool,
    parameter: spec.parameter,
    metric: spec.metric,
    goal: spec.goal,
    candidates: spec.candidates,
    next_value: next < spec.candidates.length ? spec.candidates[next] : null,
    scores: Array.isArray(p.scores) ? p.scores : [],
  };
}
