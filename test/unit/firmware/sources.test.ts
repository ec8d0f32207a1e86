import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentsError } from '../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../actors/adapters/kit/workspace.ts';
import { parseDiagnostics, writeSources } from '../../../actors/firmware/index.ts';
import { gccBuild } from '../../../actors/firmware/gcc.ts';
import { FirmwareBuildRequestSchema } from '../../../contracts/firmware.ts';

// The firmware actor's source writing: hostile paths first. Each refusal must leave nothing written, neither in the
// workspace nor outside it.
let base: string;
let root: string;
let out: string;
let ws: Workspace;
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sources-')));
  [root, out] = [path.join(base, 'ws'), path.join(base, 'outside')];
  fs.mkdirSync(root);
  fs.mkdirSync(out);
  ws = new Workspace(root);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const ok = { path: 'main.c', content: 'int main(void) { return 0; }\n' };
const tree = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
const refused = async (files: { path: string; content: string }[]) => {
  await expect(writeSources(ws, 'run-1', files)).rejects.toBeInstanceOf(InvalidArgumentsError);
};

describe('hostile source paths are refused and nothing is written', () => {
  it.each([
    ['an absolute path', '/etc/cron.d/x.c'],
    ['a .. segment', '../../escape.c'],
    ['a .. in the middle', 'src/../../x.c'],
    ['a hidden segment', '.git/x.c'],
    ['a backslash', 'a\\b.c'],
    ['a file that is no C source', 'run.sh'],
  ])('%s', async (_, p) => {
    await refused([ok, { path: p, content: 'x' }]);
    expect(tree(root)).toEqual([]);
    expect(tree(out)).toEqual([]);
    expect(FirmwareBuildRequestSchema.safeParse({ run_id: 'r', files: [ok, { path: p, content: 'x' }] }).success).toBe(
      false,
    );
  });

  it('a build folder that is a symlink out of the workspace', async () => {
    fs.mkdirSync(path.join(root, 'firmware'));
    fs.symlinkSync(out, path.join(root, 'firmware/run-1'));
    await refused([ok]);
    expect(tree(out)).toEqual([]);
  });

  it('a source folder inside the build that is a symlink out, even when it is not the first file', async () => {
    fs.mkdirSync(path.join(root, 'firmware/run-1/src'), { recursive: true });
    fs.symlinkSync(out, path.join(root, 'firmware/run-1/src/drivers'));
    await refused([ok, { path: 'drivers/sht31.c', content: 'x' }]);
    expect(tree(out)).toEqual([]);
    expect(tree(path.join(root, 'firmware/run-1/src'))).toEqual(['drivers']);
  });

  it('a src or build folder that is a symlink, even one pointing inside the workspace, or a hostile run id', async () => {
    fs.mkdirSync(path.join(root, 'firmware/run-1'), { recursive: true });
    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'firmware/run-1/build'));
    await refused([ok]);
    await expect(writeSources(ws, '../x', [ok])).rejects.toBeInstanceOf(InvalidArgumentsError);
    expect(tree(path.join(root, 'firmware'))).toEqual(['run-1', 'run-1/build']);
    expect(tree(path.join(root, 'elsewhere'))).toEqual([]);
  });

  it('a source that exists as a symlink, even one pointing inside the workspace', async () => {
    fs.mkdirSync(path.join(root, 'firmware/run-1/src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'keep.c'), 'keep');
    fs.symlinkSync(path.join(root, 'keep.c'), path.join(root, 'firmware/run-1/src/main.c'));
    await refused([{ path: 'other.c', content: 'x' }, ok]);
    expect(fs.readFileSync(path.join(root, 'keep.c'), 'utf8')).toBe('keep');
    expect(tree(path.join(root, 'firmware/run-1/src'))).toEqual(['main.c']);
  });
});

describe('plain sources', () => {
  it('land under firmware/<run_id>/src, with a build folder beside them', async () => {
    const dirs = await writeSources(ws, 'run-1', [ok, { path: 'drivers/sht31.h', content: '#pragma once\n' }]);
    expect(dirs).toEqual({
      root: path.join(root, 'firmware/run-1'),
      src: path.join(root, 'firmware/run-1/src'),
      out: path.join(root, 'firmware/run-1/build'),
    });
    expect(tree(path.join(root, 'firmware/run-1/src'))).toEqual(['drivers', 'drivers/sht31.h', 'main.c']);
    expect(fs.readFileSync(path.join(dirs.src, 'main.c'), 'utf8')).toBe(ok.content);
  });
});

describe('gcc diagnostics', () => {
  it('are read as file, line, column, severity and message; other lines are left out', () => {
    const stderr = [
      'main.c: In function ‘main’:',
      'main.c:3:7: error: ‘y’ undeclared (first use in this function)',
      'drivers/sht31.c:12:1: warning: control reaches end of non-void function [-Wreturn-type]',
      'main.c:3:7: note: each undeclared identifier is reported only once',
      'cc1: all warnings being treated as errors',
    ].join('\n');
    expect(parseDiagnostics(stderr)).toEqual([
      { file: 'main.c', line: 3, column: 7, severity: 'error', message: '‘y’ undeclared (first use in this function)' },
      {
        file: 'drivers/sht31.c',
        line: 12,
        column: 1,
        severity: 'warning',
        message: 'control reaches end of non-void function [-Wreturn-type]',
      },
      {
        file: 'main.c',
        line: 3,
        column: 7,
        severity: 'note',
        message: 'each undeclared identifier is reported only once',
      },
    ]);
  });
});

describe('an aborted build', () => {
  it('rejects with the abort reason and compiles nothing', async () => {
    const dirs = await writeSources(ws, 'run-1', [ok]);
    const reason = new Error('the firmware build took longer than 1 s');
    await expect(gccBuild(['main.c'], dirs, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(tree(dirs.out)).toEqual([]);
  });
});
