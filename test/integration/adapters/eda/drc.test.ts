import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBoard } from '../../../../workers/eda/board.ts';
import { parseDrcReport } from '../../../../actors/adapters/eda/drc-report.ts';
import { runDrcTool } from '../../../../actors/adapters/eda/drc.tool.ts';
import { KICAD_MISSING, setKicadPython } from '../../../../actors/adapters/eda/engine.ts';
import { InvalidArgumentsError, ToolError, ToolUnavailableError } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { DEMO_BOARDS, DEMOS, demoWorkspace, listFiles, rejection, toolContext } from './board-support.ts';

const demos = demoWorkspace('eda-drc-');
const ws = new Workspace(demos.root);
const tool = runDrcTool(ws);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eda-drc-direct-'));
afterAll(() => {
  demos.remove();
  fs.rmSync(tmp, { recursive: true, force: true });
});
const drc = (board_path: string, signal?: AbortSignal) =>
  tool.handler({ board_path, max_items: 1000 }, toolContext(signal));
const calls = () => listFiles(path.join(demos.root, 'calls'));

/** KiCad's own answer: WriteDRCReport run directly on the demo in place (its project file beside it), unsandboxed. */
function directDrc(rel: string) {
  const out = path.join(tmp, `${rel.replace(/[/ ]/g, '_')}.rpt`);
  execFileSync('/usr/bin/python3', [
    '-c',
    'import pcbnew, sys; b = pcbnew.LoadBoard(sys.argv[1]); ' +
      'assert pcbnew.WriteDRCReport(b, sys.argv[2], pcbnew.EDA_UNITS_MILLIMETRES, True)',
    path.join(DEMOS, rel),
    out,
  ]);
  return parseDrcReport(fs.readFileSync(out, 'utf8'));
}

describe('eda.run_drc through KiCad 6', () => {
  it('pic_programmer: 2 silk_over_copper errors, nothing unconnected, the report in the call folder', async () => {
    const tc = toolContext();
    const r = await tool.handler(
      { board_path: demos.board('pic_programmer/pic_programmer.kicad_pcb'), max_items: 1000 },
      tc,
    );
    expect(r).toMatchObject({
      passed: false,
      violation_count: 2,
      error_count: 2,
      warning_count: 0,
      unconnected_count: 0,
      footprint_error_count: 0,
      unconnected: [],
      truncated: false,
      board: { footprints: 63, pads: 247, nets: 112, copper_layers: ['F.Cu', 'B.Cu'] },
    });
    expect(r.kicad_version).toMatch(/^6\.0\./);
    // As KiCad reports them: the board outline against a silkscreen line at (171.45, 36.195) and (172.72, 36.195).
    expect(r.violations).toEqual(
      [171.45, 172.72].map((x) => ({
        type: 'silk_over_copper',
        severity: 'error',
        description: 'Silkscreen clipped by solder mask',
        rule: 'board setup constraints silk',
        items: [
          { description: 'Line on Edge.Cuts', position_mm: { x: 73.66, y: 40.64 } },
          { description: 'Line on F.Silkscreen', position_mm: { x, y: 36.195 } },
        ],
      })),
    );
    expect(r.report_file).toMatch(/^calls\/eda\.run_drc\/[0-9a-f-]{36}\/out\/drc\.rpt$/);
    expect(tc.outputFiles).toEqual([r.report_file]);
    expect(fs.readFileSync(path.join(demos.root, r.report_file), 'utf8')).toContain('** Found 2 DRC violations **');
  });

  it('a board with its tracks removed: unconnected pads between pads of one net, dangling vias as warnings', async () => {
    const text = fs.readFileSync(path.join(DEMOS, 'pic_programmer/pic_programmer.kicad_pcb'), 'utf8');
    const unrouted = text
      .split('\n')
      .filter((l) => !l.startsWith('  (segment '))
      .join('\n');
    fs.mkdirSync(path.join(demos.root, 'unrouted'), { recursive: true });
    fs.writeFileSync(path.join(demos.root, 'unrouted/pic.kicad_pcb'), unrouted);
    // Its project file beside it, as the tool copies it: it sets the severities (silk_over_copper an error here).
    const project = fs.readFileSync(path.join(DEMOS, 'pic_programmer/pic_programmer.kicad_pro'));
    fs.writeFileSync(path.join(demos.root, 'unrouted/pic.kicad_pro'), project);
    const board = parseBoard(unrouted, 'pic');
    expect(board.tracks).toHaveLength(0);
    const r = await drc('unrouted/pic.kicad_pcb');
    expect(r.passed).toBe(false);
    const direct = directDrcOf(unrouted, project);
    expect(r.unconnected_count).toBe(direct.unconnected.length);
    expect(r.unconnected).toEqual(direct.unconnected);
    expect(r.unconnected_count).toBeGreaterThan(0);
    for (const u of r.unconnected) {
      expect(u).toMatchObject({ type: 'unconnected_items', severity: 'error' });
      expect(u.items).toHaveLength(2);
      const nets = u.items.map((i) => /\[([^\]]+)\]/.exec(i.description)?.[1]);
      expect(nets[0]).toBe(nets[1]);
    }
    // The two silkscreen errors stay; each of the board's vias now dangles (a warning in pic_programmer's project).
    expect(r.error_count).toBe(2);
    expect(r.violations.filter((v) => v.type === 'via_dangling')).toHaveLength(board.vias.length);
    expect(r.warning_count).toBe(board.vias.length);
  });

  it.each(DEMO_BOARDS)('%s: the same violations as KiCad run in place', async (rel) => {
    const r = await drc(demos.board(rel));
    const direct = directDrc(rel);
    expect([r.violation_count, r.unconnected_count, r.footprint_error_count]).toEqual([
      direct.violations.length,
      direct.unconnected.length,
      direct.footprint_errors.length,
    ]);
    expect(r.violations).toEqual(direct.violations);
  });

  it('kills the engine when the call is aborted', async () => {
    const boardPath = demos.board('video/video.kicad_pcb');
    const ac = new AbortController();
    const before = calls();
    const running = drc(boardPath, ac.signal);
    const engines = () => enginesUnder(demos.root);
    await expect.poll(() => engines().length).toBeGreaterThan(0);
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
    expect(e.message).toBe(
      "KiCad's board engine failed on bad/token.kicad_pcb (drc): OSError: Unknown token 'bogus' in 'bad/token.kicad_pcb', line 2, offset 4.",
    );
  });

  it('a path outside the workspace, and a missing file', async () => {
    const out = await refused('../x.kicad_pcb');
    expect(out).toBeInstanceOf(InvalidArgumentsError);
    expect(out.message).toBe('board_path "../x.kicad_pcb" is outside the workspace');
    const missing = await refused('nowhere/board.kicad_pcb');
    expect(missing.message).toBe('board_path "nowhere/board.kicad_pcb" cannot be read: ENOENT');
  });

  it('without KiCad: TOOL_UNAVAILABLE naming the Debian package', async () => {
    setKicadPython('/nonexistent/python3');
    try {
      const e = await refused(demos.board('ecc83/ecc83-pp.kicad_pcb'));
      expect(e).toBeInstanceOf(ToolUnavailableError);
      expect(e.message).toBe(KICAD_MISSING);
      expect(e.details).toMatchObject({ package: 'kicad' });
    } finally {
      setKicadPython('/usr/bin/python3');
    }
  });
});

/** Direct DRC of a board text with its project file (written to a folder of the temp folder). */
function directDrcOf(text: string, project: Buffer) {
  const dir = fs.mkdtempSync(path.join(tmp, 'text-'));
  fs.writeFileSync(path.join(dir, 'b.kicad_pcb'), text);
  fs.writeFileSync(path.join(dir, 'b.kicad_pro'), project);
  execFileSync('/usr/bin/python3', [
    '-c',
    'import pcbnew, sys; b = pcbnew.LoadBoard(sys.argv[1]); ' +
      'assert pcbnew.WriteDRCReport(b, sys.argv[2], pcbnew.EDA_UNITS_MILLIMETRES, True)',
    path.join(dir, 'b.kicad_pcb'),
    path.join(dir, 'b.rpt'),
  ]);
  return parseDrcReport(fs.readFileSync(path.join(dir, 'b.rpt'), 'utf8'));
}

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
