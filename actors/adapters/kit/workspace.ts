import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { constants as C } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentsError, ToolError } from './tool.ts';

type Mode = 'read' | 'write';

/** The scratch root: every call's scratch folder lives under it; no caller's path may write there (README "Workspace confinement"). */
export const SCRATCH_ROOT = 'calls';

/**
 * The shared adapter workspace (TOOLS.md "Files and workspaces"): tools pass files by path; a relative path resolves
 * against the workspace root. One confinement rule serves every read and write (README "Workspace confinement"):
 * no NUL, no backslash, no empty path; the path resolves lexically inside the root; then each component is walked from
 * the root's real path and a symlink is followed only when its real target stays inside (a dangling one is refused).
 * A write also refuses an existing symlink or folder as its target, creates missing folders only under the real
 * parent, and lands through a temporary name in that real folder renamed into place (rename never follows a link).
 * Refusals are invalid arguments naming the argument. Each call gets its own scratch folder under `calls/` (the
 * scratch root); a caller's path may read there (a later call reads an earlier call's outputs) but never writes there,
 * through any spelling or link: only `scratch()` and `writeInScratch()` create things under it. An output a caller
 * names (`resolveOutput`) that exists is refused unless the call says `overwrite: true`. Outputs are reported relative
 * to the root.
 */
export class Workspace {
  readonly root: string;
  private realRoot: string | undefined;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async ensure(): Promise<void> {
    await this.real();
  }

  /** A caller's path to read, as its real path inside the workspace (it may not exist; the reader says so). */
  resolve(p: string, argName = 'path'): Promise<string> {
    return this.confine(p, argName, 'read');
  }

  /** Same as `resolve`: the read side of the one confinement rule. */
  resolveForRead(p: string, argName = 'path'): Promise<string> {
    return this.confine(p, argName, 'read');
  }

  /** A caller's path to write: the real path of a new or regular file, its missing folders created under the real parent. */
  resolveForWrite(p: string, argName = 'path'): Promise<string> {
    return this.confine(p, argName, 'write');
  }

  /**
   * A caller's output path (`output_path`, a file under `output_dir`): as `resolveForWrite`, and an existing file is
   * refused unless `overwrite` (the tool then replaces it: a destructive write, held for remote callers).
   */
  async resolveOutput(p: string, argName: string, overwrite: boolean): Promise<string> {
    const abs = await this.resolveForWrite(p, argName);
    if (!overwrite && (await fs.lstat(abs).catch(() => undefined)))
      throw new InvalidArgumentsError(`${argName} ${JSON.stringify(p)} exists; pass overwrite: true to replace it`, {
        [argName]: p,
      });
    return abs;
  }

  /** Writes `name` into a scratch folder `scratch()` made (the tool's own output, not a caller's path); answers its path. */
  async writeInScratch(dir: string, name: string, data: Uint8Array | string): Promise<string> {
    const scratchRoot = path.join(await this.real(), SCRATCH_ROOT);
    const abs = path.join(dir, name);
    if (!within(scratchRoot, dir) || dir === scratchRoot || path.dirname(abs) !== dir)
      throw new Error(`not a scratch folder of this workspace: ${dir}`);
    await replaceFile(abs, data);
    return abs;
  }

  /** Reads a workspace file (never through a final symlink); a missing file is invalid arguments naming it. */
  async read(p: string, argName = 'path'): Promise<Buffer> {
    const abs = await this.resolveForRead(p, argName);
    try {
      return await fs.readFile(abs, { flag: C.O_RDONLY | C.O_NOFOLLOW });
    } catch (err) {
      throw new InvalidArgumentsError(
        `${argName} ${JSON.stringify(p)} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        { [argName]: p },
      );
    }
  }

  /** Writes a workspace file through a temporary name in its real folder; answers its real path. */
  async writeFile(p: string, data: Uint8Array | string, argName = 'path'): Promise<string> {
    const abs = await this.resolveForWrite(p, argName);
    await replaceFile(abs, data);
    return abs;
  }

  /** Moves a file the call made (e.g. in its scratch folder) to a caller's path, under the same rule as `writeFile`. */
  async moveInto(src: string, p: string, argName = 'path'): Promise<string> {
    const abs = await this.resolveForWrite(p, argName);
    try {
      await fs.rename(src, abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await replaceFile(abs, await fs.readFile(src));
      await fs.rm(src, { force: true });
    }
    return abs;
  }

  /** A fresh scratch folder for one call, e.g. `calls/<tool>/<id>` (confined like any write: a linked `calls/` is refused). */
  async scratch(tool: string): Promise<string> {
    const rel = ['calls', tool.replace(/[^a-z0-9_.-]/gi, '_'), crypto.randomUUID()].join('/');
    try {
      return path.dirname(await this.confine(`${rel}/.scratch`, 'the scratch folder', 'write', true));
    } catch (err) {
      throw err instanceof InvalidArgumentsError
        ? new ToolError(`the workspace is misconfigured: ${err.message}`)
        : err;
    }
  }

  /** Path relative to the root, for `output_files` and results. */
  relative(abs: string): string {
    const base = this.realRoot && within(this.realRoot, abs) ? this.realRoot : this.root;
    return path.relative(base, abs).split(path.sep).join('/');
  }

  private async real(): Promise<string> {
    if (!this.realRoot) {
      await fs.mkdir(this.root, { recursive: true });
      this.realRoot = await fs.realpath(this.root);
    }
    return this.realRoot;
  }

  /** The one confinement rule (see the class comment); `scratch`: the write is `scratch()` making a call's folder. */
  private async confine(p: string, argName: string, mode: Mode, scratch = false): Promise<string> {
    const q = JSON.stringify(p);
    const refuse = (why: string) => new InvalidArgumentsError(`${argName} ${q} ${why}`, { [argName]: p });
    if (typeof p !== 'string' || p === '') throw new InvalidArgumentsError(`${argName} is empty`, { [argName]: p });
    if (p.includes('\0')) throw refuse('contains a NUL byte');
    if (p.includes('\\')) throw refuse('contains a backslash (separate folders with /)');
    const root = await this.real();
    const abs = path.resolve(this.root, p);
    const base = within(this.root, abs) ? this.root : within(root, abs) ? root : undefined;
    if (base === undefined) throw refuse('is outside the workspace');
    const parts = path.relative(base, abs).split(path.sep).filter(Boolean);
    if (!parts.length) throw refuse('names the workspace folder, not a file');
    const scratchRoot = path.join(root, SCRATCH_ROOT);
    /** A caller's write that reaches the scratch root or below, by name or through a link. */
    const reserved = (real: string) => mode === 'write' && !scratch && within(scratchRoot, real);
    const refuseReserved = () =>
      refuse(`is inside ${SCRATCH_ROOT}/, the scratch root, reserved for the calls' own scratch folders`);

    let cur = root;
    for (let i = 0; i < parts.length; i++) {
      const next = path.join(cur, parts[i]);
      if (reserved(next)) throw refuseReserved();
      const st = await fs.lstat(next).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
        throw refuse(`cannot be checked: ${err.code ?? err.message}`);
      });
      if (!st)
        return mode === 'read' ? path.join(cur, ...parts.slice(i)) : this.createUnder(cur, parts.slice(i), refuse);
      const last = i === parts.length - 1;
      if (st.isSymbolicLink()) {
        if (last && mode === 'write') throw refuse('is a symlink; a tool does not write through a symlink');
        const target = await fs.realpath(next).catch(() => undefined);
        if (!target) throw refuse(`goes through a symlink that leads nowhere (${parts.slice(0, i + 1).join('/')})`);
        if (!within(root, target)) throw refuse('leads outside the workspace through a symlink');
        if (reserved(target)) throw refuseReserved();
        cur = target;
      } else cur = next;
      if (last && mode === 'write' && !(await fs.stat(cur)).isFile()) throw refuse('is a folder or not a regular file');
      if (last && mode === 'read' && (await fs.stat(cur)).isDirectory()) throw refuse('is a folder, not a file');
    }
    return cur;
  }

  /** Creates the missing folders of `rest` under the real folder `dir` and answers the target's path in its real folder. */
  private async createUnder(dir: string, rest: string[], refuse: (why: string) => Error): Promise<string> {
    const folder = path.join(dir, ...rest.slice(0, -1));
    try {
      await fs.mkdir(folder, { recursive: true });
      if ((await fs.realpath(folder)) !== folder) throw refuse('changed under the call (a folder became a symlink)');
    } catch (err) {
      if (err instanceof InvalidArgumentsError) throw err;
      throw refuse(`cannot be created: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    return path.join(folder, rest.at(-1)!);
  }
}

/** Writes `data` to a temporary name beside `abs` (O_CREAT|O_EXCL: never through a link) and renames it onto `abs`. */
async function replaceFile(abs: string, data: Uint8Array | string): Promise<void> {
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.${crypto.randomUUID()}.tmp`);
  try {
    await fs.writeFile(tmp, data, { flag: C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, mode: 0o644 });
    await fs.rename(tmp, abs);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

function within(root: string, abs: string): boolean {
  return abs === root || abs.startsWith(root + path.sep);
}

/** The workspace root of a process: `SERVICE_WORKSPACE`, else `<data dir>/workspace` (a temp dir for in-memory data). */
export function workspaceRoot(config: { SERVICE_WORKSPACE?: string; dataDir: string }): string {
  if (config.SERVICE_WORKSPACE) return config.SERVICE_WORKSPACE;
  if (config.dataDir.startsWith('memory://'))
    return path.join(process.env.TMPDIR ?? '/tmp', `service-workspace-${process.pid}`);
  return path.join(config.dataDir, 'workspace');
}
