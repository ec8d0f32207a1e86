import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setKicadCli } from '../../../../actors/adapters/eda/engine.ts';
import { exportGerberTool } from '../../../../actors/adapters/eda/gerber.tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { DEMOS, demoWorkspace, listFiles, toolContext } from './board-support.ts';

// Issue 30, decision 0152: eda.export_gerber starts kicad-cli once per board (a KiCad job set: Gerbers and job file,
// drill, positions), where it started it three times, and the files are those of the three separate commands it ran
// before, byte for byte but for their creation dates.
const demos = demoWorkspace('eda-gerber-jobset-');
const ws = new Workspace(demos.root);
const tool = exportGerberTool(ws);
afterAll(() => demos.remove());

const REL = 'pic_programmer/pic_programmer.kicad_pcb';
const MARK = '.kicad-cli-start.';

describe('eda.export_gerber as one KiCad job set', () => {
  it('starts kicad-cli once per board and leaves only the output folder in the call folder', async () => {
    // A stand-in that records each start in the call's output folder (inside the sandbox: its working folder is the
    // call folder) and runs the real kicad-cli; the version probe is not an export and is not counted.
    // Outside /tmp: the sandbox gives every run a private /tmp, where the version probe would not find it.
    const bin = fs.mkdtempSync(path.join(os.homedir(), '.eda-kicad-standin-'));
    const standIn = path.join(bin, 'kicad-cli');
    const real = execFileSync('sh', ['-c', 'command -v kicad-cli'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(
      standIn,
      `#!/bin/sh\n[ "$1" = version ] || mktemp "$PWD/out/${MARK}XXXXXX" >/dev/null\nexec ${real} "$@"\n`,
      { mode: 0o755 },
    );
    setKicadCli(standIn);
    try {
      const r = await tool.handler({ board_path: demos.board(REL), overwrite: false }, toolContext());
      const call = path.join(demos.root, path.dirname(r.output_dir));
      const left = listFiles(call);
      expect(left.filter((f) => f.includes(MARK))).toHaveLength(1);
      // KiCad's temporary copy of the outputs and its settings went with the call's private home.
      expect(left.filter((f) => !f.startsWith('out/'))).toEqual([]);
      expect(Object.keys(r.engine_ms)).toEqual(['export']);
    } finally {
      setKicadCli('kicad-cli');
      fs.rmSync(bin, { recursive: true, force: true });
    }
  }, 300_000);

  it('writes the files the separate kicad-cli commands write, byte for byte but their dates', async () => {
    const r = await tool.handler({ board_path: demos.board(REL), overwrite: false }, toolContext());
    // The three commands the tool ran before the job set, run directly on a copy of the board and its project.
    const dir = fs.mkdtempSync(path.join(demos.root, 'direct-'));
    for (const ext of ['kicad_pcb', 'kicad_pro'])
      fs.copyFileSync(path.join(DEMOS, REL.replace(/kicad_pcb$/, ext)), path.join(dir, `pic_programmer.${ext}`));
    const layers = 'F.Cu,B.Cu,F.Paste,B.Paste,F.Silkscreen,B.Silkscreen,F.Mask,B.Mask,Edge.Cuts';
    const board = 'pic_programmer.kicad_pcb';
    const run = (...args: string[]) =>
      execFileSync('kicad-cli', ['pcb', 'export', ...args], {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: dir },
        stdio: 'ignore',
      });
    fs.mkdirSync(path.join(dir, 'out'));
    run('gerbers', '--no-protel-ext', '--layers', layers, '-o', 'out/', board);
    run(
      ...['drill', '--format', 'excellon', '--excellon-units', 'mm', '--excellon-oval-format', 'route'],
      ...['--excellon-zeros-format', 'decimal', '--excellon-separate-th', '--drill-origin', 'absolute', '-o', 'out/'],
      board,
    );
    run('pos', '--format', 'csv', '--units', 'mm', '--side', 'both', '-o', 'out/pic_programmer-all-pos.csv', board);

    const undated = (file: string) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => !/CreationDate|date \d{4}-\d\d-\d\d|"CreationDate"/.test(l))
        .join('\n');
    const ours = [...r.files.map((f) => f.path), r.position_file];
    expect(ours.map((f) => path.basename(f)).sort()).toEqual(fs.readdirSync(path.join(dir, 'out')).sort());
    for (const f of ours)
      expect(undated(path.join(demos.root, f)), f).toBe(undated(path.join(dir, 'out', path.basename(f))));
  }, 300_000);
});
