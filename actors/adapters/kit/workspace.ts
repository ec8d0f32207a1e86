import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentsError } from './tool.ts';

/**
 * The shared adapter workspace (TOOLS.md "Files and workspaces"): tools pass files by path; a relative path resolves
 * against the workspace root; a path that escapes it (`..`, an absolute path outside, a symlink out) is refused as
 * invalid arguments. Each call gets its own scratch folder; outputs are reported relative to the root.
 */
export class Workspace {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async ensure(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
  }

  /** Resolves a caller's path inside the workspace, refusing escapes (symlinks included, for paths that exist). */
  async resolve(p: string, argName = 'path'): Promise<string> {
    if (!p || p.includes('\0')) throw new InvalidArgumentsError(`${argName} is empty or invalid`, { [argName]: p });
    const abs = path.resolve(this.root, p);
    if (!this.inside(abs)) throw new InvalidArgumentsError(`${argName} ${JSON.stringify(p)} is outside the workspace`, { [argName]: p, workspace: this.root });
    const real = await fs.realpath(abs).catch(() => undefined);
    if (real && !this.inside(real)) throw new InvalidArgumentsError(`${argName} ${JSON.stringify(p)} leads outside the workspace`, { [argName]: p });
    return abs;
  }

  /** Reads a workspace file; a missing file is invalid arguments naming it. */
  async read(p: string, argName = 'path'): Promise<Buffer> {
    const abs = await this.resolve(p, argName);
    try {
      return await fs.readFile(abs);
    } catch (err) {
      throw new InvalidArgumentsError(`${argName} ${JSON.stringify(p)} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { [argName]: p });
    }
  }

  /** A fresh scratch folder for one call, e.g. `calls/<tool>/<id>`. */
  async scratch(tool: string): Promise<string> {
    const dir = path.join(this.root, 'calls', tool.replace(/[^a-z0-9_.-]/gi, '_'), crypto.randomUUID());
    await fs.mkdir(dir, { recursive: true });
    return dir;
  }

  /** Path relative to the root, for `output_files` and results. */
  relative(abs: string): string {
    return path.relative(this.root, abs).split(path.sep).join('/');
  }

  private inside(abs: string): boolean {
    return abs === this.root || abs.startsWith(this.root + path.sep);
  }
}

/** The workspace root of a process: `SERVICE_WORKSPACE`, else `<data dir>/workspace` (a temp dir for in-memory data). */
export function workspaceRoot(config: { SERVICE_WORKSPACE?: string; dataDir: string }): string {
  if (config.SERVICE_WORKSPACE) return config.SERVICE_WORKSPACE;
  if (config.dataDir.startsWith('memory://')) return path.join(process.env.TMPDIR ?? '/tmp', `service-workspace-${process.pid}`);
  return path.join(config.dataDir, 'workspace');
}
