import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBoard } from '../../../../workers/eda/board.ts';
import { parseDrcJson } from '../../../../actors/adapters/eda/drc-json.ts';
import { runDrcTool } from '../../../../actors/adapters/eda/drc.tool.ts';
import { KICAD_CLI_MISSING, setKicadCli } from '../../../../actors/adapters/eda/engine.ts';
import { InvalidArgumentsError, ToolError, ToolUnavailableError } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { DEMOS, demoWorkspace, listFiles, rejection, toolContext } from './board-support.ts';

const demos = demoWorkspace('eda-drc-');
const ws = new Workspace(demos.root);
const tool = runDrcTool(ws);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eda-drc-direct-'));
afterAll(() => {
  demos.remove();
  fs.rmSync(tmp, { recursive: true, force: true });
});
const drc = (board_path: string, signal?: AbortSignal, schematic_path?: string) =>
  tool.handler({ board_path, max_items: 1000, ...(schematic_path ? { schematic_path } : {}) }, toolContext(signal));
const calls = () => listFiles(path.join(demos.root, 'calls'));

/** KiCad's own answer: kicad-cli run directly (unsandboxed, a fresh HOME) on a board text with its project file. */
function directDrc(text: string, project: Buffer | undefined, schematic?: Record<string, Buffer>) {
  const dir = fs.mkdtempSync(path.join(tmp, 'direct-'));
  fs.writeFileSync(path.join(dir, 'b.kicad_pcb'), text);
  if (project) fs.writeFileSync(path.join(dir, 'b.kicad_pro'), project);
  for (const [name, data] of Object.entries(schematic ?? {})) fs.writeFileSync(path.join(dir, name), data);
  const args = [
    'pcb',
    'drc',
    '--format',
    'json',
    '--severity-error',
    '--severity-warning',
    '-o',
    'b.json',
    'b.kicad_pcb',
  ];
  if (schematic) args.splice(2, 0, '--schematic-parity');
  execFileSync('kicad-cli', args, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir }, stdio: 'ignore' });
  return parseDrcJson(fs.readFileSync(path.join(dir, 'b.json'), 'utf8'));
}
const demoFile = (rel: string) => fs.readFileSync(path.join(DEMOS, rel));

describe('eda.run_drc through kicad-cli (KiCad 9)', () => {
  it('pic_programmer: clean but for the library checks set aside, the JSON report in the call folder', async () => {
    const tc = toolContext();
    const r = await tool.handler(
      { board_path: demos.board('pic_programmer/pic_programmer.kicad_pcb'), max_items: 1000 },
      tc,
    );
    expect(r).toMatchObject({
      passed: true,
      violation_count: 0,
      error_count: 0,
      unconnected_count: 0,
      footprint_error_count: 0,
      truncated: false,
      // Footprint library "footprints" is the demo's own table, not in the call's private KiCad settings.
      environment_excluded: { lib_footprint_issues: 63 },
      board: { footprints: 63, pads: 247, nets: 112, copper_layers: ['F.Cu', 'B.Cu'] },
    });
    expect(r.schematic_parity).toBeUndefined();
    expect(r.kicad_version).toMatch(/^9\./);
    expect(r.report_file).toMatch(/^calls\/eda\.run_drc\/[0-9a-f-]{36}\/out\/drc\.json$/);
    expect(tc.outputFiles).toEqual([r.report_file]);
    const report = JSON.parse(fs.readFileSync(path.join(demos.root, r.report_file), 'utf8'));
    expect(report.violations).toHaveLength(63);
    // Only the report stays: the staged board and KiCad's private settings are gone.
    expect(listFiles(path.join(demos.root, path.dirname(path.dirname(r.report_file))))).toEqual(['out/drc.json']);
  });

  it('a board with its tracks removed: the same unconnected items and dangling vias as kicad-cli run directly', async () => {
    const text = demoFile('pic_programmer/pic_programmer.kicad_pcb').toString('utf8');
    const unrouted = text.replace(/^\t\(segment\n(?:\t\t.*\n)*?\t\)\n/gm, '');
    fs.mkdirSync(path.join(demos.root, 'unrouted'), { recursive: true });
    fs.writeFileSync(path.join(demos.root, 'unrouted/pic.kicad_pcb'), unrouted);
    const project = demoFile('pic_programmer/pic_programmer.kicad_pro');
    fs.writeFileSync(path.join(demos.root, 'unrouted/pic.kicad_pro'), project);
    const board = parseBoard(unrouted, 'pic');
    expect(board.tracks).toHaveLength(0);
    const r = await drc('unrouted/pic.kicad_pcb');
    expect(r.passed).toBe(false);
    const direct = directDrc(unrouted, project);
    expect(r.unconnected_count).toBeGreaterThan(0);
    expect(r.unconnected).toEqual(direct.unconnected);
    expect(r.violations).toEqual(direct.violations);
    for (const u of r.unconnected) {
      expect(u).toMatchObject({ type: 'unconnected_items', severity: 'error' });
      expect(u.items).toHaveLength(2);
    }
    expect(r.violations.filter((v) => v.type === 'via_dangling')).toHaveLength(board.vias.length);
  });

  it('schematic_path: pic_programmer against its own schematic (two sheets) matches; against another, it does not', async () => {
    const boardPath = demos.board('pic_programmer/pic_programmer.kicad_pcb');
    const own = await drc(boardPath, undefined, demos.schematic('pic_programmer/pic_programmer.kicad_sch'));
    // KiCad finds every footprint and net as the schematic has them; its footprints come from the demo's own
    // library nickname "footprints" where the symbols name KiCad's libraries: footprint_symbol_mismatch warnings.
    expect(own.schematic_parity).toMatchObject({
      schematic_path: 'demos/pic_programmer/pic_programmer.kicad_sch',
      matches: true,
      missing_footprints: [],
      extra_footprints: [],
      net_conflicts: [],
    });
    expect(own.footprint_error_count).toBe(Object.values(own.schematic_parity!.other).reduce((a, b) => a + b, 0));
    const other = await drc(boardPath, undefined, demos.schematic('ecc83/ecc83-pp.kicad_sch'));
    expect(other.passed).toBe(false);
    expect(other.schematic_parity!.matches).toBe(false);
    expect(other.schematic_parity!.missing_footprints.length).toBeGreaterThan(0);
    expect(other.schematic_parity!.extra_footprints.length).toBeGreaterThan(0);
    const direct = directDrc(demoFile('pic_programmer/pic_programmer.kicad_pcb').toString('utf8'), undefined, {
      'b.kicad_sch': demoFile('ecc83/ecc83-pp.kicad_sch'),
    });
    expect(other.footprint_errors).toEqual(direct.footprint_errors);
  });

  it('schematic_path outside the workspace, or not a schematic: refused before KiCad runs, writing nothing', async () => {
    const boardPath = demos.board('ecc83/ecc83-pp.kicad_pcb');
    const before = calls();
    const out = await rejection(drc(boardPath, undefined, '../../etc/x.kicad_sch'));
    expect(out).toBeInstanceOf(InvalidArgumentsError);
    expect(out.message).toContain('outside the workspace');
    const notSch = await rejection(drc(boardPath, undefined, boardPath));
    expect(notSch).toBeInstanceOf(InvalidArgumentsError);
    expect(notSch.message).toContain('is not a .kicad_sch file');
    fs.writeFileSync(path.join(demos.root, 'garbage.kicad_sch'), '(kicad_sch (version 20250114)\n  (sheet\n');
    const bad = await rejection(drc(boardPath, undefined, 'garbage.kicad_sch'));
    expect(bad).toBeInstanceOf(InvalidArgumentsError);
    expect(calls()).toEqual(before);
  });

  it('kills the engine when the call is aborted', async () => {
    const boardPath = demos.board('video/video.kicad_pcb');
    const ac = new AbortController();
    const before = calls();
    const running = drc(boardPath, ac.signal);
    const engines = () => enginesUnder(demos.root);
    await expect.poll(() => engines().length, { timeout: 60_000 }).toBeGreaterThan(0);
    ac.abort(new Error('cancelled by the test'));
    await expect(running).rejects.toThrow('cancelled by the test');
    await expect.poll(() => engines()).toEqual([]);
    expect(calls()).toEqual(before);
  });
});

describe('eda.run_drc refuses bad input naming the file, writing nothing', () => {
  const write = (rel: string, data: string) => {
    fs.mkdirSync(path.dirname(path.join(demos.root, rel)), { recursive: true });
    fs.writeFileSync(path.join(demos.root, rel), data);
    return rel;
  };
  const refused = async (rel: string) => {
    const before = calls();
    const e = await rejection(drc(rel));
    expect(calls()).toEqual(before);
    return e;
  };

  it('a truncated board', async () => {
    const text = fs.readFileSync(path.join(DEMOS, 'pic_programmer/pic_programmer.kicad_pcb'), 'utf8').slice(0, 30_000);
    const e = await refused(write('bad/truncated.kicad_pcb', text));
    expect(e).toBeInstanceOf(ToolError);
    expect(e.message).toMatch(
      new RegExp(
        `^bad/truncated\\.kicad_pcb: not a KiCad board: line ${text.split('\n').length}: unexpected end of file`,
      ),
    );
  });

  it('a KiCad 5 legacy board', async () => {
    const legacy =
      'PCBNEW-BOARD Version 1 date 03/01/2019 12:00:00\n\n# Created by Pcbnew(5.0.2)\n$GENERAL\nUnits mm\n$EndGENERAL\n$EndBOARD\n';
    const e = await refused(write('bad/legacy.brd', legacy));
    expect(e.message).toMatch(/^bad\/legacy\.brd: line 1: a KiCad 4\/5 legacy board \("PCBNEW-BOARD" text format\)/);
    expect(e.details).toMatchObject({ file: 'bad/legacy.brd', line: 1 });
  });

  it('a file that is not KiCad at all, and a schematic', async () => {
    const png = await refused(write('bad/image.kicad_pcb', '\u0089PNG\r\n\u001a\n'));
    expect(png.message).toMatch(
      /^bad\/image\.kicad_pcb: not a KiCad board: line 1: not an S-expression: expected "\("/,
    );
    const sch = await refused(write('bad/sheet.kicad_sch', '(kicad_sch (version 20211123) (generator eeschema))\n'));
    expect(sch.message).toContain('bad/sheet.kicad_sch: line 1: not a KiCad board: the file starts with "(kicad_sch"');
  });

  it('a board only KiCad refuses: its error, naming the workspace file, and the call folder removed', async () => {
    const text = '(kicad_pcb (version 20211014) (generator x)\n  (bogus 1)\n)\n';
    const e = await refused(write('bad/token.kicad_pcb', text));
    expect(e).toBeInstanceOf(ToolError);
    expect(e.message).toBe('KiCad failed on bad/token.kicad_pcb (drc): Failed to load board');
  });

  it('a board of a KiCad newer than 9: refused naming its format', async () => {
    const e = await refused(write('bad/future.kicad_pcb', '(kicad_pcb (version 20270101) (generator x)\n)\n'));
    expect(e).toBeInstanceOf(ToolError);
    expect(e.message).toBe(
      'bad/future.kicad_pcb: the board is format 20270101, written by a KiCad newer than this engine (KiCad 9 reads up to 20241229)',
    );
  });

  it('a path outside the workspace, and a missing file', async () => {
    const out = await refused('../x.kicad_pcb');
    expect(out).toBeInstanceOf(InvalidArgumentsError);
    expect(out.message).toBe('board_path "../x.kicad_pcb" is outside the workspace');
    const missing = await refused('nowhere/board.kicad_pcb');
    expect(missing.message).toBe('board_path "nowhere/board.kicad_pcb" cannot be read: ENOENT');
  });

  it('without KiCad 9: TOOL_UNAVAILABLE naming kicad-cli, the Debian package and the suite', async () => {
    setKicadCli('/nonexistent/kicad-cli');
    try {
      const e = await refused(demos.board('ecc83/ecc83-pp.kicad_pcb'));
      expect(e).toBeInstanceOf(ToolUnavailableError);
      expect(e.message).toBe(KICAD_CLI_MISSING);
      expect(e.details).toMatchObject({ package: 'kicad', suite: 'bookworm-backports' });
    } finally {
      setKicadCli('kicad-cli');
    }
  });
});

/** Processes whose command line names a path under `root` (the sandbox and the engine of a call). */
function enginesUnder(root: string): number[] {
  const pids: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(root)) pids.push(Number(pid));
    } catch {
      // gone
    }
  }
  return pids;
}
