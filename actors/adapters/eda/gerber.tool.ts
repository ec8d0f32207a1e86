import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { ExportOverwrite } from './export-output.ts';
import { loadWorkspaceBoard, runOnStagedBoard } from './pcbnew.ts';

export const ExportGerberInputSchema = z.object({
  board_path: z.string().min(1).describe('Workspace path of the KiCad 6 board (.kicad_pcb)'),
  output_dir: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Workspace folder for the files (created if missing); default the call's own folder under calls/. A file of the same name already there is refused unless overwrite is true",
    ),
  overwrite: ExportOverwrite,
});

const GerberFile = z.object({
  path: z.string().describe('Workspace-relative'),
  layer: z
    .string()
    .describe('KiCad layer (F.Cu, In1.Cu, F.Mask, Edge.Cuts...), PTH or NPTH for drill files, empty for the job'),
  kind: z.enum(['gerber', 'drill', 'job']),
  bytes: z.number().int(),
});

export const ExportGerberResultSchema = z.object({
  files: z.array(GerberFile),
  output_dir: z.string().describe('Workspace-relative folder holding the files'),
  layer_count: z.number().int().describe('Copper layers'),
  kicad_version: z.string(),
  position_file: z
    .string()
    .describe(
      "Workspace-relative pick-and-place file: KiCad's own position file (CSV, mm, both sides; Ref,Val,Package,PosX,PosY,Rot,Side)",
    ),
  placed_count: z
    .number()
    .int()
    .describe('Footprints in the position file: every footprint not marked "exclude from position files"'),
  elapsed_ms: z.number(),
  engine_ms: z
    .object({ load: z.number(), plot: z.number(), drill: z.number(), place: z.number() })
    .describe(
      "Inside KiCad's engine: importing pcbnew and loading the board, plotting the Gerbers, writing the drill files, writing the job and position files",
    ),
});

const KIND = new Set(['gerber', 'drill', 'job']);

/**
 * `eda.export_gerber`: fabrication files of a workspace board through KiCad's own plotter (pcbnew/plot.py): Gerber X2
 * of every enabled copper layer, F/B mask, silkscreen and paste and Edge.Cuts, PTH and NPTH Excellon drill files and
 * the Gerber job file (KiCad 6's GERBER_JOBFILE_WRITER), and the pick-and-place file (KiCad's PLACE_FILE_EXPORTER).
 */
export function exportGerberTool(ws: Workspace) {
  return defineTool({
    name: 'export_gerber',
    title: 'Export Gerber and drill files of a KiCad board',
    description:
      'Plot a workspace KiCad 6 board (board_path, .kicad_pcb) for fabrication with KiCad 6 itself: Gerber X2 files of ' +
      'every copper layer the board enables, F/B solder mask, silkscreen and paste and Edge.Cuts (netlist attributes ' +
      'on), Excellon drill files for plated (PTH) and non-plated (NPTH) holes (metric, not merged) and a Gerber job file ' +
      "(.gbrjob), and KiCad's pick-and-place file (position_file: CSV, mm, both sides, with placed_count footprints). Files land in the call's own scratch folder, or in output_dir (a workspace folder; a file of the same name already there is refused unless overwrite is true); returns each file with its " +
      'layer, kind (gerber | drill | job) and size. A file that is not a KiCad 5/6 board is refused naming the file and line.',
    input: ExportGerberInputSchema,
    output: ExportGerberResultSchema,
    handler: async (a, tc) => {
      const started = performance.now();
      const loaded = await loadWorkspaceBoard(ws, a.board_path);
      const dir = a.output_dir?.replace(/\/+$/, '');
      // Confinement of output_dir before anything is written (read mode: checks, creates nothing).
      if (dir !== undefined) await ws.resolve(`${dir}/.check`, 'output_dir');
      const { run, outDir } = await runOnStagedBoard(ws, loaded, 'eda.export_gerber', 'plot', tc.signal);
      const realOut = await fs.realpath(outDir);
      /** One file the script wrote, only from its own output folder (the call's scratch). */
      const made = (p: string) => {
        const abs = path.resolve(outDir, p);
        if (path.dirname(abs) !== realOut && path.dirname(abs) !== outDir)
          throw new ToolError("KiCad's plot script wrote outside its output folder", { file: p });
        return abs;
      };
      const listed = (Array.isArray(run.files) ? (run.files as unknown[]) : []).map((f) => {
        const { path: p, layer, kind } = (f ?? {}) as Record<string, unknown>;
        if (typeof p !== 'string' || typeof layer !== 'string' || typeof kind !== 'string' || !KIND.has(kind))
          throw new ToolError("KiCad's plot script listed a file it could not describe", { file: f as never });
        return { abs: made(p), layer, kind: kind as 'gerber' | 'drill' | 'job' };
      });
      if (!listed.some((f) => f.kind === 'gerber')) throw new ToolError('KiCad plotted no Gerber file', { log: run });
      if (typeof run.position_file !== 'string' || !Number.isInteger(run.placed_count))
        throw new ToolError('KiCad wrote no position file', { log: run });
      const positionAbs = made(run.position_file);
      // Into output_dir: every target checked before the first is moved (an existing one refused unless overwrite).
      const target = (abs: string) => `${dir}/${path.basename(abs)}`;
      if (dir !== undefined)
        for (const abs of [...listed.map((f) => f.abs), positionAbs])
          await ws.resolveOutput(target(abs), 'output_dir', a.overwrite);
      /** Moves one file to output_dir when given (else it stays in the call's scratch folder) and reports it. */
      const take = async (abs: string) => {
        const final = dir !== undefined ? await ws.moveInto(abs, target(abs), 'output_dir') : abs;
        const rel = ws.relative(final);
        tc.outputFiles.push(rel);
        return { rel, bytes: (await fs.stat(final)).size };
      };
      const files: z.output<typeof GerberFile>[] = [];
      for (const f of listed) {
        const { rel, bytes } = await take(f.abs);
        files.push({ path: rel, layer: f.layer, kind: f.kind, bytes });
      }
      const position = await take(positionAbs);
      return {
        files,
        output_dir: path.posix.dirname(files[0]!.path),
        layer_count: Number(run.layer_count) || loaded.board.copper_layers.length,
        position_file: position.rel,
        placed_count: run.placed_count as number,
        kicad_version: String(run.kicad_version ?? ''),
        elapsed_ms: Math.round(performance.now() - started),
        engine_ms: {
          load: Number(run.load_ms) || 0,
          plot: Number(run.plot_ms) || 0,
          drill: Number(run.drill_ms) || 0,
          place: Number(run.place_ms) || 0,
        },
      };
    },
  });
}
