import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { layoutBoard } from '../../../actors/adapters/eda/layout/layout.ts';
import { InvalidArgumentsError } from '../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../actors/adapters/kit/workspace.ts';
import { hasLayoutEngines, writeReferenceSchematic } from './layout-support.ts';

/**
 * Hostile and impossible layout requests (issue 31 point 2): a symbol whose footprint is not in KiCad's libraries or
 * names a path outside them, an outline the parts cannot fit, a schematic outside the workspace. Each is
 * INVALID_ARGUMENTS naming what is wrong, and no board is written.
 */
const SCH = 'electronics/run-x/board.kicad_sch';
const PCB = 'electronics/run-x/board.kicad_pcb';

async function refusal(p: Promise<unknown>): Promise<InvalidArgumentsError> {
  const err = await p.then(
    (v) => new Error(`expected a refusal, got ${JSON.stringify(v).slice(0, 300)}`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidArgumentsError);
  return err as InvalidArgumentsError;
}

describe.skipIf(!hasLayoutEngines)('layout refusals', () => {
  let outer: string;
  let root: string;
  let ws: Workspace;
  const written = () => fs.existsSync(path.join(root, PCB));

  beforeEach(() => {
    outer = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-hostile-'));
    root = path.join(outer, 'ws');
    fs.mkdirSync(root);
    ws = new Workspace(root);
  });
  afterEach(() => fs.rmSync(outer, { recursive: true, force: true }));

  const run = (outline = { width: 60, height: 45 }, schematic_path = SCH) =>
    layoutBoard(ws, { schematic_path, output_path: PCB, outline }, AbortSignal.timeout(120_000));

  it('refuses a footprint that names a path outside the libraries, naming the symbol', async () => {
    // A file the path would reach if it were followed: it must never be read as a footprint.
    fs.mkdirSync(path.join(outer, 'etc.pretty'), { recursive: true });
    fs.writeFileSync(path.join(outer, 'etc.pretty', 'x.kicad_mod'), '(footprint "x")');
    writeReferenceSchematic(root, SCH, { ref: 'U2', id: '../../etc:x' });
    const err = await refusal(run());
    expect(err.message).toMatch(/U2 \("\.\.\/\.\.\/etc:x"\) is not a library footprint name/);
    expect(written()).toBe(false);
  }, 120_000);

  it("refuses a footprint missing from KiCad's libraries, naming the symbol and the footprint", async () => {
    writeReferenceSchematic(root, SCH, { ref: 'U1', id: 'Package_QFP:TQFP-99_No_Such_Package' });
    const err = await refusal(run());
    expect(err.message).toContain(`U1 ("Package_QFP:TQFP-99_No_Such_Package") is not in KiCad's footprint libraries`);
    expect(err.message).toContain(SCH);
    expect(written()).toBe(false);
  }, 120_000);

  it('refuses a symbol with no footprint', async () => {
    writeReferenceSchematic(root, SCH, { ref: 'C3', id: '' });
    const err = await refusal(run());
    expect(err.message).toContain('C3 has no Footprint property');
    expect(written()).toBe(false);
  }, 120_000);

  it('refuses an outline too small for the parts, with the areas', async () => {
    writeReferenceSchematic(root, SCH);
    const err = await refusal(run({ width: 14, height: 12 }));
    expect(err.message).toMatch(/^the outline 14 x 12 mm is too small for the parts: .* need \d+ mm², .* has \d+ mm²$/);
    expect(written()).toBe(false);
  }, 120_000);

  it('refuses an outline narrower than a part', async () => {
    writeReferenceSchematic(root, SCH);
    const err = await refusal(run({ width: 300, height: 6 }));
    expect(err.message).toMatch(/^the outline 300 x 6 mm is too small for (U1|J1|J2): its courtyard is/);
    expect(written()).toBe(false);
  }, 120_000);

  it('refuses a schematic outside the workspace', async () => {
    writeReferenceSchematic(outer, 'outside.kicad_sch');
    await refusal(run(undefined, '../outside.kicad_sch'));
    expect(written()).toBe(false);
  }, 120_000);
});
