import path from 'node:path';
import { z } from 'zod';
import { InvalidArgumentsError, type ToolContext } from '../kit/tool.ts';
import { OverwriteArg } from '../kit/output-args.ts';
import type { Workspace } from '../kit/workspace.ts';

/**
 * Where an EDA export writes (docs/decisions/0030-export-writes.md): by default into the call's own scratch folder
 * (`calls/<tool>/<id>/`), which nothing else reads or writes, so the call changes nothing of the caller's and runs
 * unheld; into a workspace path only when the call names one (`output_path`, `output_dir`), which is then a write
 * the hold policy holds for a remote caller, and replacing an existing file needs `overwrite: true` (destructive).
 */
export const ExportOutputPath = z
  .string()
  .min(1)
  .max(1024)
  .optional()
  .describe(
    "workspace path to write the file to (default: the call's own scratch folder); an existing file is refused unless overwrite is true",
  );

export const ExportOverwrite = OverwriteArg;

/** A file the export made: written to `outputPath` (refused if it exists, unless `overwrite`) or its scratch folder. */
export async function writeExport(
  ws: Workspace,
  tc: Pick<ToolContext, 'outputFiles'>,
  o: { tool: string; name: string; text: string; outputPath?: string; overwrite: boolean },
): Promise<string> {
  let abs: string;
  if (o.outputPath === undefined) abs = await ws.writeInScratch(await ws.scratch(o.tool), o.name, o.text);
  else {
    if (!o.outputPath.endsWith(path.extname(o.name)))
      throw new InvalidArgumentsError(`output_path must end with ${path.extname(o.name)}`, {
        output_path: o.outputPath,
      });
    await ws.resolveOutput(o.outputPath, 'output_path', o.overwrite);
    abs = await ws.writeFile(o.outputPath, o.text, 'output_path');
  }
  const rel = ws.relative(abs);
  tc.outputFiles.push(rel);
  return rel;
}
