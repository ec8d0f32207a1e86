import fs from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, InvalidArgumentsError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { generateSchematic } from './generate-schematic.ts';
import { PIN_TYPES } from './generate-schematic.symbols.ts';

const PinSchema = z.strictObject({
  number: z.string().min(1).max(32).describe('pin number as on the footprint, e.g. 1, A3'),
  name: z.string().max(64).optional().describe('pin name, e.g. VIN, GND (default: none)'),
  type: z
    .enum(PIN_TYPES)
    .describe("KiCad electrical type, e.g. passive, input, power_in (ERC's pin-conflict matrix uses it)"),
});

const ComponentSchema = z.strictObject({
  reference: z.string().min(1).max(32).describe('annotated reference designator, e.g. R1, U1'),
  value: z.string().min(1).max(200).describe('value or part name, e.g. 10k, LM7805'),
  footprint: z.string().max(200).optional().describe('KiCad footprint id, e.g. Resistor_SMD:R_0603_1608Metric'),
  lib_id: z
    .string()
    .max(200)
    .optional()
    .describe(
      'library:name of the embedded symbol (default generated:<prefix or value>); components sharing it must have the same pins',
    ),
  fields: z
    .record(z.string().max(64), z.string().max(500))
    .optional()
    .describe('extra fields such as Manufacturer, MPN (hidden on the sheet, kept for the BOM)'),
  pins: z.array(PinSchema).min(1).max(500),
});

export const GenerateSchematicInputSchema = z.strictObject({
  output_path: z
    .string()
    .min(1)
    .regex(/\.kicad_sch$/, { message: 'output_path must end with .kicad_sch' })
    .describe('workspace path of the schematic to write (ends .kicad_sch)'),
  overwrite: z.boolean().default(false).describe('replace an existing file at output_path (default false: refused)'),
  title: z.string().max(200).optional().describe('title block title'),
  components: z.array(ComponentSchema).min(1).max(2000),
  connections: z
    .array(
      z.strictObject({
        net: z
          .string()
          .min(1)
          .max(200)
          .describe('net name; power names (GND, VCC, +3V3...) with a power_in pin get global labels'),
        pins: z.array(z.string().max(70)).max(5000).describe("the net's pins as REF.PIN, e.g. R1.1, U1.3"),
      }),
    )
    .max(10_000),
  no_connect: z.array(z.string().max(70)).max(5000).optional().describe('pins to mark no-connect, e.g. U1.5'),
  power_flags: z
    .boolean()
    .default(true)
    .describe('add a PWR_FLAG to each power net that no power_out pin drives, so ERC sees it supplied (default true)'),
});

export const GenerateSchematicResultSchema = z.object({
  schematic_path: z.string(),
  components: z.number().int(),
  nets: z.number().int(),
  labels: z.number().int().describe('local and global labels'),
  global_labels: z.number().int(),
  wires: z.number().int(),
  no_connects: z.number().int(),
  power_flags: z.number().int(),
  lib_symbols: z.number().int(),
  paper: z.string(),
  bytes: z.number().int(),
});

/** `eda.generate_schematic`: a KiCad 6 schematic from components and nets, written into the workspace (class P, phase 2). */
export function generateSchematicTool(ws: Workspace) {
  return defineTool({
    name: 'generate_schematic',
    title: 'Generate a KiCad schematic',
    description:
      'Write a KiCad 6 schematic (.kicad_sch) from a component list and net connections. Each component gets a symbol ' +
      '(rectangle body, pins left/right on the 2.54 mm grid; two-pin passives a small box) embedded in the file, placed ' +
      'without overlaps; each connected pin a short wire to a label with its net name. Power nets (GND, VCC, +3V3... with ' +
      'a power_in pin) use global labels, plus a PWR_FLAG when no power_out pin drives them. no_connect pins get a ' +
      'no-connect marker. Unknown pins, a pin in two nets, duplicate references or empty nets are refused and nothing ' +
      'is written; an existing file is only replaced with overwrite: true.',
    input: GenerateSchematicInputSchema,
    output: GenerateSchematicResultSchema,
    handler: async (a, tc) => {
      const generated = generateSchematic(a);
      const existing = await fs.lstat(await ws.resolveForRead(a.output_path, 'output_path')).catch(() => undefined);
      if (existing && !a.overwrite)
        throw new InvalidArgumentsError(
          `output_path ${JSON.stringify(a.output_path)} exists; pass overwrite: true to replace it`,
          { output_path: a.output_path },
        );
      const abs = await ws.writeFile(a.output_path, generated.text, 'output_path');
      const schematic_path = ws.relative(abs);
      tc.outputFiles.push(schematic_path);
      const { text, ...counts } = generated;
      return { schematic_path, ...counts, bytes: Buffer.byteLength(text) };
    },
  });
}
