import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { BoardRulesSchema, defaultRulesWarning, loadWorkspaceBoard, stagedStem } from './board-stage.ts';
import { ExportOverwrite } from './export-output.ts';
import { fabricationFiles, GERBER_LAYERS } from './gerber-files.ts';
import { fabricationJobs, positionFileName } from './gerber-jobset.ts';
import { withStagedBoard } from './kicad-cli.ts';

export const ExportGerberInputSchema = z.object({
  board_path: z.string().min(1).describe('Workspace path of the KiCad 6 to 9 board (.kicad_pcb)'),
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
    .object({ export: z.number() })
    .describe(
      "kicad-cli's one run (a KiCad job set): loading the board once, plotting the Gerbers and the job file, writing the drill and position files",
    ),
  rules: BoardRulesSchema,
  warnings: z
    .array(z.string())
    .describe("What the caller should know about the files, e.g. rules that were not the board's own"),
});

/**
 * `eda.export_gerber`: fabrication files of a workspace board through KiCad 9's command line: `kicad-cli pcb export
 * gerbers` (Gerber X2 of every enabled copper layer, F/B paste, silkscreen and mask and Edge.Cuts, and KiCad's Gerber
 * job file), `pcb export drill` (PTH and NPTH Excellon, metric) and `pcb export pos` (the pick-and-place file), run
 * as one KiCad job set so that KiCad loads the board once (gerber-jobset.ts, decision 0152).
 */
export function exportGerberTool(ws: Workspace) {
  return defineTool({
    name: 'export_gerber',
    title: 'Export Gerber and drill files of a KiCad board',
    description:
      'Plot a workspace KiCad board (board_path, .kicad_pcb of KiCad 6 to 9) for fabrication with KiCad 9 itself: Gerber X2 files of ' +
      'every copper layer the board enables, F/B solder mask, silkscreen and paste and Edge.Cuts (netlist attributes ' +
      'on), Excellon drill files for plated (PTH) and non-plated (NPTH) holes (metric, not merged) and a Gerber job file ' +
      "(.gbrjob), and KiCad's pick-and-place file (position_file: CSV, mm, both sides, with placed_count footprints). Files land in the call's own scratch folder, or in output_dir (a workspace folder; a file of the same name already there is refused unless overwrite is true); returns each file with its " +
      "layer, kind (gerber | drill | job) and size, and rules: the project file (.kicad_pro beside the board) whose settings KiCad used, or KiCad 9's defaults with a warning when the board came without it. A file that is not a KiCad board is refused naming the file and line.",
    input: ExportGerberInputSchema,
    output: ExportGerberResultSchema,
    handler: async (a, tc) => {
      const started = performance.now();
      const loaded = await loadWorkspaceBoard(ws, a.board_path);
      const dir = a.output_dir?.replace(/\/+$/, '');
      // Confinement of output_dir before anything is written (read mode: checks, creates nothing).
      if (dir !== undefined) await ws.resolve(`${dir}/.check`, 'output_dir');
      const copper = loaded.board.copper_layers;
      const run = await withStagedBoard(ws, loaded, 'eda.export_gerber', tc.signal, async (s) => {
        const stem = stagedStem(loaded.given);
        const job = await s.jobset(fabricationJobs(copper, stem), 'gerbers, drill and positions');
        const files = await fabricationFiles(s.outDir, copper.length);
        const plotted = files.filter((f) => f.kind === 'gerber').length;
        const wanted = copper.length + GERBER_LAYERS.length;
        if (plotted !== wanted)
          throw new ToolError(`KiCad plotted ${plotted} of the ${wanted} layers asked for`, { file: a.board_path });
        const positionAbs = path.join(s.outDir, positionFileName(stem));
        const csv = await fs.readFile(positionAbs, 'utf8').catch(() => undefined);
        if (csv === undefined) throw new ToolError('KiCad wrote no position file', { file: a.board_path });
        const placed = csv.split('\n').filter((l) => l.trim()).length - 1;
        return { files, positionAbs, placed, ms: { export: job.ms }, s };
      });
      const { files: listed, positionAbs, placed } = run;
      if (!listed.some((f) => f.kind === 'gerber')) throw new ToolError('KiCad plotted no Gerber file');
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
        layer_count: copper.length,
        position_file: position.rel,
        placed_count: placed,
        kicad_version: run.s.version,
        elapsed_ms: Math.round(performance.now() - started),
        engine_ms: run.ms,
        rules: run.s.rules,
        warnings: run.s.rules.project_file === null ? [defaultRulesWarning(a.board_path)] : [],
      };
    },
  });
}
