import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentsError, ToolError } from '../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../actors/adapters/kit/workspace.ts';

/** The confinement rule of the adapter workspace, case by case (the registry-level corpus is workspace-confinement.test.ts). */
let base: string;
let root: string;
let out: string;
let ws: Workspace;
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-unit-')));
  [root, out] = [path.join(base, 'ws'), path.join(base, 'outside')];
  fs.mkdirSync(root);
  fs.mkdirSync(out);
  ws = new Workspace(root);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(InvalidArgumentsError);

describe('Workspace confinement', () => {
  it('reads through a symlink whose real path stays inside, answering the real path', async () => {
    fs.mkdirSync(path.join(root, 'real'));
    fs.writeFileSync(path.join(root, 'real/a.txt'), 'inside');
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'alias'));
    expect(await ws.resolveForRead('alias/a.txt')).toBe(path.join(root, 'real/a.txt'));
    expect((await ws.read('alias/a.txt')).toString()).toBe('inside');
    expect(ws.relative(await ws.resolveForRead(path.join(root, 'alias/a.txt')))).toBe('real/a.txt');
  });

  it('writes into an in-workspace symlinked folder but never onto an existing symlink, even one pointing inside', async () => {
    fs.mkdirSync(path.join(root, 'real'));
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'alias'));
    expect(ws.relative(await ws.writeFile('alias/new/b.txt', 'x'))).toBe('real/new/b.txt');
    fs.symlinkSync(path.join(root, 'real/new/b.txt'), path.join(root, 'link.txt'));
    await refused(ws.writeFile('link.txt', 'y'));
    expect(fs.readFileSync(path.join(root, 'real/new/b.txt'), 'utf8')).toBe('x');
  });

  it('replaces an existing regular file through a temporary name, leaving no temporary behind', async () => {
    await ws.writeFile('f.txt', 'one');
    await ws.writeFile('f.txt', 'two');
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('two');
    expect(fs.readdirSync(root)).toEqual(['f.txt']);
  });

  it('refuses a dangling symlink in the middle of a path and creates nothing', async () => {
    fs.symlinkSync(path.join(out, 'nowhere'), path.join(root, 'gone'));
    await refused(ws.writeFile('gone/sub/c.txt', 'x'));
    await refused(ws.resolveForRead('gone/c.txt'));
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('moves a scratch file to the caller path and refuses a target through a folder symlink leading outside', async () => {
    const dir = await ws.scratch('t.tool');
    fs.writeFileSync(path.join(dir, 'm.inp'), 'mesh');
    expect(ws.relative(await ws.moveInto(path.join(dir, 'm.inp'), 'meshes/m.inp'))).toBe('meshes/m.inp');
    fs.symlinkSync(out, path.join(root, 'out_link'));
    fs.writeFileSync(path.join(dir, 'n.inp'), 'mesh');
    await refused(ws.moveInto(path.join(dir, 'n.inp'), 'out_link/n.inp'));
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('refuses a scratch folder whose calls/ folder is a symlink leading outside, as a tool error', async () => {
    fs.symlinkSync(out, path.join(root, 'calls'));
    const err = await ws.scratch('t').catch((e: Error) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err).not.toBeInstanceOf(InvalidArgumentsError);
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('works when the root itself is reached through a symlink', async () => {
    fs.symlinkSync(root, path.join(base, 'root_link'));
    const linked = new Workspace(path.join(base, 'root_link'));
    const abs = await linked.writeFile('d/e.txt', 'x');
    expect(abs).toBe(path.join(root, 'd/e.txt'));
    expect(linked.relative(abs)).toBe('d/e.txt');
    expect(await linked.resolveForRead(path.join(base, 'root_link/d/e.txt'))).toBe(abs);
  });

  it('refuses NUL, backslashes, empty paths, the root and climbs with the argument named', async () => {
    for (const p of ['a\0b', '..\\x', '', '.', '../outside/x', `${out}/x`, 'a/../../x']) {
      const err = await ws.resolveForWrite(p, 'output_path').catch((e: Error) => e);
      expect(err, JSON.stringify(p)).toBeInstanceOf(InvalidArgumentsError);
      expect((err as Error).message).toContain('output_path');
    }
  });
});
