import fs from 'node:fs/promises';
import path from 'node:path';
import { FirmwareBuildIdSchema, FirmwareFileSchema, type FirmwareFile } from '../../contracts/firmware.ts';
import { InvalidArgumentsError } from '../adapters/kit/tool.ts';
import type { Workspace } from '../adapters/kit/workspace.ts';

/** Where one build lives in the workspace: sources under `firmware/<id>/src/`, objects and the program under `build/`. */
export function buildDir(id: string): string {
  return `firmware/${id}`;
}

/** The real folders of one build, after its sources were written. */
export interface BuildFolders {
  /** `firmware/<id>`: the one writable place of the sandboxed compiler. */
  root: string;
  src: string;
  out: string;
}

/**
 * Writes a build's sources into the workspace, or refuses them all before writing any. Each path must pass the
 * contract's rule (relative, plain names, no `..`, .c/.h) and the workspace confinement rule (kit/workspace.ts: no
 * symlink out of the workspace, none as the file written). Every path is checked before the first write, so a refused
 * build leaves nothing behind. Refusals are InvalidArgumentsError naming `files[i].path`.
 */
export async function writeSources(ws: Workspace, id: string, files: readonly FirmwareFile[]): Promise<BuildFolders> {
  const rel = (f: FirmwareFile) => `${buildDir(id)}/src/${f.path}`;
  const arg = (i: number) => `files[${i}].path`;
  if (!FirmwareBuildIdSchema.safeParse(id).success)
    throw new InvalidArgumentsError(`run_id ${JSON.stringify(id)} is refused: letters, digits, _ and - only`, {
      run_id: id,
    });
  for (const [i, f] of files.entries()) {
    const parsed = FirmwareFileSchema.safeParse(f);
    if (!parsed.success)
      throw new InvalidArgumentsError(
        `${arg(i)} ${JSON.stringify(f.path)} is refused: ${parsed.error.issues[0]!.message}`,
        {
          [arg(i)]: f.path,
        },
      );
  }
  await ws.ensure();
  // Read-side resolution walks what exists, refuses a symlink that leaves the workspace and creates nothing.
  await ws.resolveForRead(`${buildDir(id)}/build/.probe`, 'run_id');
  for (const [i, f] of files.entries()) {
    await ws.resolveForRead(rel(f), arg(i));
    const st = await fs.lstat(path.join(ws.root, rel(f))).catch(() => undefined);
    if (st && !st.isFile())
      throw new InvalidArgumentsError(
        `${arg(i)} ${JSON.stringify(f.path)} exists and is not a regular file (a symlink or folder)`,
        {
          [arg(i)]: f.path,
        },
      );
  }
  for (const sub of ['src', 'build']) {
    const st = await fs.lstat(path.join(ws.root, buildDir(id), sub)).catch(() => undefined);
    if (st && !st.isDirectory())
      throw new InvalidArgumentsError(`${buildDir(id)}/${sub} exists and is not a folder (a symlink or file)`, {
        run_id: id,
      });
  }
  for (const [i, f] of files.entries()) await ws.writeFile(rel(f), f.content, arg(i));
  const out = path.dirname(await ws.resolveForWrite(`${buildDir(id)}/build/.keep`, 'run_id'));
  const root = await fs.realpath(path.join(ws.root, buildDir(id)));
  const src = await fs.realpath(path.join(root, 'src'));
  if (out !== path.join(root, 'build') || src !== path.join(root, 'src'))
    throw new InvalidArgumentsError(`the src or build folder of ${buildDir(id)} changed under the call`, {
      run_id: id,
    });
  return { root, src, out };
}
