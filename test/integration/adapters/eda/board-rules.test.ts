import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_BOARD_BYTES } from '../../../../actors/adapters/eda/board-stage.ts';
import { runDrcTool } from '../../../../actors/adapters/eda/drc.tool.ts';
import { exportGerberTool } from '../../../../actors/adapters/eda/gerber.tool.ts';
import { InvalidArgumentsError } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { DEMO_BOARDS, DEMOS, demoWorkspace, listFiles, rejection, toolContext } from './board-support.ts';

// Issue 30: the board limit admits every board KiCad ships (decision 0150), a board attached without its project file
// is checked on KiCad 9's default rules and the result says so (decision 0151), and each DRC violation names the check
// that fired in `rule`.
const demos = demoWorkspace('eda-board-rules-');
const ws = new Workspace(demos.root);
const drc = runDrcTool(ws);
const gerber = exportGerberTool(ws);
afterAll(() => demos.remove());
const calls = () => listFiles(path.join(demos.root, 'calls'));
/** The spec's default adapter disk limit (SPEC.md, Limits): 256 MB. */
const ADAPTER_DISK_BYTES = 256 * 1e6;

/** A demo board copied alone to `alone/`: no .kicad_pro, no .kicad_dru beside it. */
function boardAlone(rel: string): string {
  const target = path.join(demos.root, 'alone', path.basename(rel));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(path.join(DEMOS, rel), target);
  return `alone/${path.basename(rel)}`;
}

describe('board size limit (decision 0150)', () => {
  it('admits every board of the KiCad demos, and a board with its staged copy fits the adapter disk limit', () => {
    expect(DEMO_BOARDS.length).toBeGreaterThan(0);
    const largest = Math.max(...DEMO_BOARDS.map((rel) => fs.statSync(path.join(DEMOS, rel)).size));
    expect(largest).toBeGreaterThan(64 * 1024 * 1024); // vme-wren, which the old 64 MiB limit refused
    expect(largest).toBeLessThanOrEqual(MAX_BOARD_BYTES);
    expect(2 * MAX_BOARD_BYTES).toBeLessThanOrEqual(ADAPTER_DISK_BYTES);
  });

  it.each([
    ['run_drc', () => drc],
    ['export_gerber', () => gerber],
  ])('%s refuses a board one byte over the limit as invalid arguments, before reading or writing it', async (_, t) => {
    const file = path.join(demos.root, 'huge/over.kicad_pcb');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Sparse: the size is what stat reports, no disk is used, and nothing may read it.
    fs.writeFileSync(file, '');
    fs.truncateSync(file, MAX_BOARD_BYTES + 1);
    const before = calls();
    const e = await rejection(
      t().handler({ board_path: 'huge/over.kicad_pcb', max_items: 10, overwrite: false }, toolContext()),
    );
    expect(e).toBeInstanceOf(InvalidArgumentsError);
    expect(e.message).toBe(`board_path "huge/over.kicad_pcb" is ${MAX_BOARD_BYTES + 1} bytes, over ${MAX_BOARD_BYTES}`);
    expect(calls()).toEqual(before);
  });
});

describe("whose rules: the board's project file or KiCad 9's defaults (decision 0151)", () => {
  const REL = 'pic_programmer/pic_programmer.kicad_pcb';

  it("with its .kicad_pro: the project's rules, no warning; alone: KiCad's defaults, a warning, other findings", async () => {
    const own = await drc.handler({ board_path: demos.board(REL), max_items: 1000 }, toolContext());
    expect(own.rules).toEqual({
      source: 'project',
      project_file: 'demos/pic_programmer/pic_programmer.kicad_pro',
      custom_rules_file: null,
    });
    expect(own.warnings).toEqual([]);
    expect(own.error_count).toBe(0);

    const alone = await drc.handler({ board_path: boardAlone(REL), max_items: 1000 }, toolContext());
    expect(alone.rules).toEqual({ source: 'kicad_defaults', project_file: null, custom_rules_file: null });
    expect(alone.warnings).toHaveLength(1);
    expect(alone.warnings[0]).toMatch(
      /^no project file alone\/pic_programmer\.kicad_pro beside the board: KiCad 9's default/,
    );
    // The designer's project allows what KiCad's defaults flag (hole clearances, thermal spokes): the warning matters.
    expect(alone.error_count).toBeGreaterThan(0);
    expect(alone.passed).toBe(false);
    expect(new Set(alone.violations.map((v) => v.type))).toContain('hole_clearance');
  }, 300_000);

  it('export_gerber says the same, and plots a board without its project', async () => {
    const own = await gerber.handler({ board_path: demos.board(REL), overwrite: false }, toolContext());
    expect([own.rules.source, own.warnings]).toEqual(['project', []]);
    const alone = await gerber.handler({ board_path: boardAlone(REL), overwrite: false }, toolContext());
    expect(alone.rules.source).toBe('kicad_defaults');
    expect(alone.warnings[0]).toMatch(/^no project file alone\/pic_programmer\.kicad_pro/);
    expect(alone.files.map((f) => path.basename(f.path))).toEqual(own.files.map((f) => path.basename(f.path)));
    expect(alone.placed_count).toBe(own.placed_count);
  }, 300_000);
});

describe('each violation names the check that fired', () => {
  it("microwave: rule is KiCad's violation type on every violation, never empty", async () => {
    const r = await drc.handler(
      { board_path: demos.board('microwave/microwave.kicad_pcb'), max_items: 1000 },
      toolContext(),
    );
    expect(r.violation_count).toBeGreaterThan(0);
    for (const v of r.violations) expect(v.rule).toBe(v.type);
    expect(new Set(r.violations.map((v) => v.rule))).toEqual(
      new Set(['shorting_items', 'text_thickness', 'text_height']),
    );
  }, 300_000);
});
