import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { workspaceIncludes } from '../kit/spice/netlist-includes.ts';
import { InvalidArgumentsError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { SchematicError } from '../../../workers/eda/schematic.ts';
import { loadDesign } from './load.ts';
import { sheetTexts, type SheetText } from './spice-directives.ts';
import { exportSpice, libraryFiles, type LibraryResolution, type SpiceSkip } from './spice.ts';

/** Largest schematic file read. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

/** What `eda.export_netlist` with `format: 'spice'` answers. */
export const SpiceNetlistResultSchema = z.object({
  spice_path: z.string().describe('workspace path of the ngspice netlist written'),
  components: z.number().int().describe('element lines written'),
  directives: z.array(z.string()).describe('include cards and sheet directives written'),
  skipped: z
    .array(z.object({ item: z.string(), reason: z.string() }))
    .describe('parts, directives and libraries left out, each with the reason'),
});

export interface SpiceNetlistFile {
  spice_path: string;
  components: number;
  directives: string[];
  skipped: SpiceSkip[];
}

/** `${KIPRJMOD}` (the project folder) as KiCad expands it in `Spice_Lib_File`; other variables are left to fail. */
const expandProject = (file: string) => file.replace(/^\$\{KIPRJMOD\}[/\\]?|^\$\(KIPRJMOD\)[/\\]?/, '');

/**
 * How each library resolves for a netlist written in `outDir`: relative to the schematic's folder, as KiCad resolves
 * `Spice_Lib_File`, it must be a workspace file that passes `circuit.run_simulation`'s checks with every file it
 * includes in turn, the very resolver that tool uses (the copies it makes go to a scratch folder removed at once).
 */
async function resolveLibraries(
  ws: Workspace,
  files: string[],
  schDir: string,
  outDir: string,
): Promise<Map<string, LibraryResolution>> {
  const out = new Map<string, LibraryResolution>();
  if (!files.length) return out;
  const scratch = await ws.scratch('eda.export_netlist');
  try {
    const check = workspaceIncludes(ws, schDir, path.join(scratch, 'include'));
    for (const file of files) {
      const local = expandProject(file);
      if (/\$[{(]/.test(local)) {
        out.set(file, { reason: 'names a path variable other than KIPRJMOD, which the workspace cannot resolve' });
        continue;
      }
      try {
        await check(local);
        const abs = await ws.resolveForRead(path.resolve(schDir, local), 'library');
        const rel = path.relative(outDir, abs).split(path.sep).join('/');
        out.set(file, { include: rel });
      } catch (err) {
        if (!(err instanceof InvalidArgumentsError)) throw err;
        out.set(file, { reason: err.message });
      }
    }
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
  return out;
}

/**
 * Exports a KiCad 6 simulation schematic of the workspace as an ngspice netlist (spice.ts) and writes it to
 * `outputPath` through the workspace's confined write (an existing file only with `overwrite`; never a schematic), or
 * by default to `<schematic stem>.cir` in the call's own scratch folder (export-output.ts). Libraries named
 * by the parts or the sheets are written as `.include` cards relative to the netlist's folder when they lie inside
 * the workspace and pass the circuit tool's allow-list; otherwise they are skipped with the reason. The netlist runs
 * as is with `circuit.run_simulation` (`netlist_path`).
 */
export async function spiceNetlistFile(
  ws: Workspace,
  schematicPath: string,
  out: { outputPath?: string; overwrite?: boolean } = {},
): Promise<SpiceNetlistFile> {
  if (!schematicPath.endsWith('.kicad_sch'))
    throw new InvalidArgumentsError(`schematic_path ${JSON.stringify(schematicPath)} is not a .kicad_sch file`, {
      schematic_path: schematicPath,
    });
  const target = out.outputPath;
  const name = `${path.posix.basename(schematicPath, '.kicad_sch')}.cir`;
  if (
    target?.endsWith('.kicad_sch') ||
    (target && path.posix.normalize(target) === path.posix.normalize(schematicPath))
  )
    throw new InvalidArgumentsError(`output_path ${JSON.stringify(target)} would overwrite a schematic`, {
      output_path: target,
    });
  // Where it lands, checked before any work: a caller's path (refused if it exists, unless overwrite) or scratch.
  const outAbs =
    target !== undefined
      ? await ws.resolveOutput(target, 'output_path', out.overwrite ?? false)
      : path.join(await ws.scratch('eda.export_netlist'), name);
  const read = async (file: string) => {
    const buf = await ws.read(file, file === schematicPath ? 'schematic_path' : `sheet file ${file}`);
    if (buf.byteLength > MAX_FILE_BYTES)
      throw new InvalidArgumentsError(`${file} is ${buf.byteLength} bytes, over ${MAX_FILE_BYTES}`, { file });
    return buf.toString('utf8');
  };
  // The hierarchy and its connectivity are read in the eda pool's worker, within its work limits (load.ts).
  const { sch, conn } = (await loadDesign(ws, schematicPath, { kind: 'design' })).result;
  const texts: SheetText[] = [];
  try {
    for (const file of sch.files) texts.push(...sheetTexts(file, await read(file)));
  } catch (err) {
    if (err instanceof SchematicError) throw new InvalidArgumentsError(err.message, { file: err.file });
    throw err;
  }
  const schDir = path.dirname(await ws.resolveForRead(schematicPath, 'schematic_path'));
  const libraries = await resolveLibraries(ws, libraryFiles(sch, texts), schDir, path.dirname(outAbs));
  const result = exportSpice(sch, conn, { texts, libraries });
  const written =
    target !== undefined
      ? await ws.writeFile(target, result.text, 'output_path')
      : await ws.writeInScratch(path.dirname(outAbs), name, result.text);
  return {
    spice_path: ws.relative(written),
    components: result.components.length,
    directives: result.directives,
    skipped: result.skipped,
  };
}
