import { z } from 'zod';

/**
 * A board from a schematic (issue 31, decision 0165): the eda adapter's bus action `adapters.eda.layout`, which the
 * hardware_v1 flow calls as it calls `firmware.build` (no MCP tool: the catalogue stays at 97). The schematic and the
 * board are workspace paths.
 */
export const LayoutOutlineSchema = z.object({
  width: z.number().positive().max(500).describe('Board width (mm), the outline on Edge.Cuts'),
  height: z.number().positive().max(500).describe('Board height (mm)'),
});

export const LayoutRequestSchema = z.object({
  schematic_path: z.string().min(1).max(1024).describe('Workspace path of the schematic (.kicad_sch)'),
  output_path: z.string().min(1).max(1024).describe('Workspace path of the board to write (.kicad_pcb)'),
  outline: LayoutOutlineSchema,
  /** The annealer's first seed (the same seed and schematic give the same board). */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .optional(),
  /** Route the placed board (route.ts) when the router is there; false: placed only. */
  route: z.boolean().default(true),
  timeout_seconds: z.number().int().min(1).max(1800).default(600),
});
export type LayoutRequest = z.infer<typeof LayoutRequestSchema>;

const Pair = z.object({
  cap: z.string(),
  ic: z.string(),
  pin: z.string(),
  net: z.string(),
  distance_mm: z.number().describe("Capacitor pad on the pin's net to the IC pin, centre to centre"),
});

export const LayoutResultSchema = z.object({
  board_path: z.string(),
  project_path: z.string().describe('The .kicad_pro beside the board: design rules and net classes'),
  rules_path: z.string().describe('The .kicad_dru beside the board: the Power class width as a DRC rule'),
  outline: z.object({ width: z.number(), height: z.number(), origin: z.object({ x: z.number(), y: z.number() }) }),
  footprints: z.number().int(),
  nets: z.number().int(),
  placements: z.array(
    z.object({ ref: z.string(), role: z.string(), x: z.number(), y: z.number(), rotation: z.number() }),
  ),
  decoupling: z.array(Pair),
  sensor_regulator_mm: z.number().optional().describe("Sensor's origin to the regulator's (mm)"),
  method: z.string(),
  wirelength_mm: z.number().describe('Half-perimeter wirelength of the placement (ground nets at a fifth)'),
  elapsed_ms: z.number().int(),
  routing: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The router's report (route.ts) when the board was routed; absent: placed only"),
  routing_skipped: z.string().optional().describe('Why the board was not routed'),
});
export type LayoutResult = z.infer<typeof LayoutResultSchema>;
