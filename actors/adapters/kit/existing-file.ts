import fs from 'node:fs/promises';
import { InvalidArgumentsError } from './tool.ts';
import type { Workspace } from './workspace.ts';

/** Resolves a workspace path to an existing file; missing is invalid arguments naming the argument. */
export async function existingFile(ws: Workspace, p: string, arg: string): Promise<string> {
  const abs = await ws.resolveForRead(p, arg);
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st?.isFile())
    throw new InvalidArgumentsError(`${arg} ${JSON.stringify(p)} does not exist in the workspace`, { [arg]: p });
  return abs;
}
