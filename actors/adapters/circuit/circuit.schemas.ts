import { z } from 'zod';

/** A SPICE number: a JSON number, or SPICE text with an optional scale suffix (`5u`, `100k`, `1meg`, `2.5e-3`). */
export const SpiceValueSchema = z.union([
  z.number(),
  z.string().regex(/^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?(t|g|meg|k|mil|m|u|n|p|f)?[a-z]*\s*$/i, {
    message: 'expected a SPICE number such as 5u, 100k or 1e-3',
  }),
]);

/**
 * `params` of `circuit.run_simulation`: the analysis card values, used when given (they replace the netlist's card of
 * that analysis) and required when the netlist has no card of it. dc: source, start, stop, step → `.dc`; ac: variation
 * (dec|oct|lin, default dec), points (default 10), fstart, fstop → `.ac`; transient: tstep, tstop, tstart, tmax, uic → `.tran`;
 * op: none. Keys of another analysis are refused.
 */
export const AnalysisParamsSchema = z.strictObject({
  source: z
    .string()
    .regex(/^[A-Za-z][\w.#-]*$/, { message: 'expected the name of an independent source, e.g. V1' })
    .optional()
    .describe('dc: the swept source, e.g. V1'),
  start: SpiceValueSchema.optional().describe('dc: sweep start'),
  stop: SpiceValueSchema.optional().describe('dc: sweep stop'),
  step: SpiceValueSchema.optional().describe('dc: sweep increment'),
  variation: z.enum(['dec', 'oct', 'lin']).optional().describe('ac: point spacing (default dec)'),
  points: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe('ac: points per decade/octave, or in total for lin (default 10)'),
  fstart: SpiceValueSchema.optional().describe('ac: start frequency (Hz)'),
  fstop: SpiceValueSchema.optional().describe('ac: stop frequency (Hz)'),
  tstep: SpiceValueSchema.optional().describe('transient: printing increment (s)'),
  tstop: SpiceValueSchema.optional().describe('transient: final time (s)'),
  tstart: SpiceValueSchema.optional().describe('transient: first time kept (s, default 0)'),
  tmax: SpiceValueSchema.optional().describe('transient: largest internal step (s)'),
  uic: z.boolean().optional().describe('transient: use initial conditions instead of an operating point'),
});

/** Arguments of `circuit.run_simulation` (TOOLS.md): netlist xor netlist_path, analysis_type, params, probes, max_points. */
export const RunSimulationInputSchema = z.object({
  netlist: z
    .string()
    .min(1)
    .max(2_000_000)
    .optional()
    .describe('SPICE netlist text (line 1 is the title); no .control block'),
  netlist_path: z.string().min(1).optional().describe('workspace path of a netlist file (instead of netlist)'),
  analysis_type: z
    .enum(['op', 'dc', 'ac', 'transient'])
    .describe('the analysis to run; other analysis cards of the netlist are not run'),
  params: AnalysisParamsSchema.optional(),
  probes: z
    .array(z.string().min(1))
    .max(200)
    .optional()
    .describe('vectors to keep, e.g. v(out), i(v1), or a bare node name (default: all)'),
  max_points: z
    .number()
    .int()
    .min(2)
    .max(100_000)
    .default(500)
    .describe('largest number of points per waveform (decimated by index, ends kept)'),
});
export type RunSimulationInput = z.output<typeof RunSimulationInputSchema>;

const StatSchema = z.object({ final: z.number(), min: z.number(), max: z.number() });

/** Summary of one vector: final (last point), min, max; AC: of the magnitude in dB and of the (unwrapped) phase in degrees. */
export const VectorSummarySchema = z.union([
  z.object({ type: z.string(), final: z.number(), min: z.number(), max: z.number() }),
  z.object({ type: z.string(), magnitude_db: StatSchema, phase_deg: StatSchema }),
]);
export type VectorSummary = z.infer<typeof VectorSummarySchema>;

/** Decimated waveforms keyed by their scale: `x` holds the scale's values (`scale` names it: time, frequency, v(v-sweep)). */
export const WaveformSchema = z.object({
  scale: z.string(),
  scale_type: z.string(),
  x: z.array(z.number()),
  series: z.record(
    z.string(),
    z.union([z.array(z.number()), z.object({ magnitude_db: z.array(z.number()), phase_deg: z.array(z.number()) })]),
  ),
  points: z.number().int(),
  source_points: z.number().int(),
  decimated: z.boolean(),
});
export type Waveform = z.infer<typeof WaveformSchema>;

/** Result of a converged run. A run that failed is a tool error whose details carry `converged: false` and the simulator's `log`. */
export const RunSimulationResultSchema = z.object({
  analysis_type: z.enum(['op', 'dc', 'ac', 'transient']),
  plot: z.string(),
  card: z.string().describe('the analysis card that ran'),
  converged: z.boolean(),
  points: z.number().int(),
  vectors: z.record(z.string(), VectorSummarySchema),
  waveform: WaveformSchema.nullable().describe('null for op'),
  log: z.array(z.string()).describe("the simulator's warnings and notes"),
  netlist_file: z.string(),
  raw_file: z.string(),
  elapsed_ms: z.number(),
});
export type RunSimulationResult = z.infer<typeof RunSimulationResultSchema>;
