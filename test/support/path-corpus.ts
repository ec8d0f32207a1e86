import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The traversal corpus (issue finding 3): hostile paths every path-taking tool must refuse, run through the tool
 * registry by test/integration/adapters/workspace-confinement.test.ts. A layout puts the workspace and an outside
 * folder side by side under one temp dir; the outside folder holds a valid copy of every input kind, so a read that
 * escapes would succeed and a write that escapes would change the outside snapshot.
 */
export interface Layout {
  base: string;
  ws: string;
  out: string;
}

/**
 * How a case must end: refused as invalid arguments, or `inside`: a literal name inside the workspace (the tool may
 * succeed or fail for its own reasons, but anything it writes is a regular file inside the workspace).
 */
export type Expect = 'refused' | 'inside';

export interface PathCase {
  name: string;
  path(ext: string, l: Layout): string;
  read: Expect | 'skip';
  write: Expect;
}

export const PATH_CASES: PathCase[] = [
  { name: 'relative climb', path: (e) => `../outside/x.${e}`, read: 'refused', write: 'refused' },
  { name: 'climb after a folder', path: (e) => `ok/../../outside/x.${e}`, read: 'refused', write: 'refused' },
  { name: 'deep climb', path: (e) => `a/b/../../../outside/x.${e}`, read: 'refused', write: 'refused' },
  { name: 'absolute path outside', path: (e, l) => `${l.out}/x.${e}`, read: 'refused', write: 'refused' },
  { name: 'symlinked folder', path: (e) => `link_dir/x.${e}`, read: 'refused', write: 'refused' },
  {
    name: 'new folder under a symlinked folder',
    path: (e) => `link_dir/new/y.${e}`,
    read: 'refused',
    write: 'refused',
  },
  { name: 'symlinked folder deeper in', path: (e) => `ok/deep_link/x.${e}`, read: 'refused', write: 'refused' },
  { name: 'file symlink to an outside file', path: (e) => `secret.${e}`, read: 'refused', write: 'refused' },
  { name: 'dangling file symlink', path: (e) => `dangling.${e}`, read: 'refused', write: 'refused' },
  { name: 'dangling folder symlink', path: (e) => `dangling_dir/y.${e}`, read: 'refused', write: 'refused' },
  { name: 'existing symlink target pointing inside', path: (e) => `inside.${e}`, read: 'skip', write: 'refused' },
  { name: 'NUL byte', path: (e) => `ok/a\u0000.${e}`, read: 'refused', write: 'refused' },
  { name: 'NUL byte before a climb', path: (e) => `ok/\u0000/../../outside/x.${e}`, read: 'refused', write: 'refused' },
  { name: 'URL-encoded dots (literal name)', path: (e) => `%2e%2e/outside/x.${e}`, read: 'inside', write: 'inside' },
  {
    name: 'URL-encoded dots and slashes (literal name)',
    path: (e) => `..%2foutside%2fx.${e}`,
    read: 'inside',
    write: 'inside',
  },
  { name: 'backslash climb', path: (e) => `..\\outside\\x.${e}`, read: 'refused', write: 'refused' },
  {
    name: 'backslash absolute',
    path: (e, l) => `${l.out.replaceAll('/', '\\')}\\x.${e}`,
    read: 'refused',
    write: 'refused',
  },
  { name: 'empty', path: () => '', read: 'refused', write: 'refused' },
  { name: 'the workspace itself', path: () => '.', read: 'refused', write: 'refused' },
  { name: 'a folder', path: () => 'ok', read: 'refused', write: 'refused' },
];

/** Input files by extension: where the valid copy sits inside the workspace (`ok/`), copied outside as `x.<ext>`. */
export const INPUT_FILES: Record<string, string> = {
  step: 'ok/a.step',
  stl: 'ok/a.stl',
  inp: 'ok/mesh.inp',
  frd: 'ok/beam.frd',
  cir: 'ok/net.cir',
  'json.gz': 'ok/field.json.gz',
  kicad_sch: 'ok/a.kicad_sch',
  kicad_pcb: 'ok/a.kicad_pcb',
  net: 'ok/a.net',
  csv: 'ok/a.csv',
};

/** The temp layout: `<base>/ws` (the workspace) and `<base>/outside`. */
export function makeLayout(): Layout {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'confine-')));
  const l = { base, ws: path.join(base, 'ws'), out: path.join(base, 'outside') };
  fs.mkdirSync(path.join(l.ws, 'ok'), { recursive: true });
  fs.mkdirSync(l.out);
  return l;
}

/** Copies the inputs outside and makes the symlinks the cases name (call once the `ok/` inputs exist). */
export function plantLinks(l: Layout): void {
  const ws = (p: string) => path.join(l.ws, p);
  fs.symlinkSync(l.out, ws('link_dir'));
  fs.symlinkSync(l.out, ws('ok/deep_link'));
  fs.symlinkSync(path.join(l.out, 'nodir'), ws('dangling_dir'));
  for (const [ext, file] of Object.entries(INPUT_FILES)) {
    fs.copyFileSync(ws(file), path.join(l.out, `x.${ext}`));
    fs.symlinkSync(path.join(l.out, `x.${ext}`), ws(`secret.${ext}`));
    fs.symlinkSync(path.join(l.out, `made-through-dangling.${ext}`), ws(`dangling.${ext}`));
    fs.symlinkSync(ws(file), ws(`inside.${ext}`));
  }
}

/** Everything under `<base>` except the workspace: path to content hash (links to their target). */
export function outsideSnapshot(l: Layout): Record<string, string> {
  const snap: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (p === l.ws) continue;
      if (e.isSymbolicLink()) snap[p] = `link:${fs.readlinkSync(p)}`;
      else if (e.isDirectory()) {
        snap[p] = 'dir';
        walk(p);
      } else snap[p] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(l.base);
  return snap;
}

/** True when `rel` (a tool's reported workspace path) is a regular file whose real path is inside the workspace. */
export function writtenInside(l: Layout, rel: string): boolean {
  const abs = path.resolve(l.ws, rel);
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  return !!st?.isFile() && fs.realpathSync(abs).startsWith(l.ws + path.sep);
}
