import fs from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentsError, ToolError, ToolUnavailableError } from '../../kit/tool.ts';
import type { Workspace } from '../../kit/workspace.ts';
import { engineMessage, PCBNEW_SCRIPTS, runEngine } from '../auto-route.engine.ts';
import { loadWorkspaceSchematic, stageSchematic } from '../board-stage.ts';
import { KICAD_MISSING, KICAD_PYTHON, pcbnewVersion } from '../engine.ts';
import { requireKicadCli, runKicadCli } from '../kicad-cli.ts';
import { FOOTPRINT_ROOT, resolveFootprints } from './footprints.ts';
import { NetlistError, padNets, readNetlist } from './netlist.ts';
import { pairDistance } from './placer-cost.ts';
import { place, PlacementError } from './placer.ts';
import { type Measured, placementParts } from './roles.ts';
import { BOARD_RULES, projectFile, rulesFile } from './rules.ts';
import type { LayoutRequest, LayoutResult } from './layout.types.ts';

export type { LayoutRequest, LayoutResult } from './layout.types.ts';

/** Where the board's outline starts on KiCad's page (mm), so the board sits on the sheet. */
const ORIGIN = { x: 50, y: 50 };

/**
 * A placed board from a workspace schematic (decision 0165, docs/layout.md): KiCad's netlist of the schematic
 * (`kicad-cli sch export netlist`), each symbol's footprint from KiCad 9's libraries (refused by name when missing or
 * not a library name), measured and then written by pcbnew (pcbnew/place_board.py; data in, never code), placed by the
 * seeded annealer (placer.ts) inside the outline, with the rules and net classes in the `.kicad_pro` and `.kicad_dru`
 * beside it. Every engine runs sandboxed with the call's scratch folder its only writable place; nothing lands in the
 * workspace unless the whole chain succeeded. Unrouted: routing is route.ts's.
 */
export async function layoutBoard(
  ws: Workspace,
  req: Pick<LayoutRequest, 'schematic_path' | 'output_path' | 'outline' | 'seed'>,
  signal: AbortSignal,
): Promise<LayoutResult> {
  const started = performance.now();
  if (!req.schematic_path.endsWith('.kicad_sch'))
    throw new InvalidArgumentsError(`schematic_path ${JSON.stringify(req.schematic_path)} is not a .kicad_sch file`, {
      schematic_path: req.schematic_path,
    });
  if (!req.output_path.endsWith('.kicad_pcb'))
    throw new InvalidArgumentsError(`output_path ${JSON.stringify(req.output_path)} must end in .kicad_pcb`, {
      output_path: req.output_path,
    });
  await ws.resolveForWrite(req.output_path, 'output_path');
  const schematic = await loadWorkspaceSchematic(ws, req.schematic_path, signal);
  await requireKicadCli();
  if (!(await pcbnewVersion())) throw new ToolUnavailableError(KICAD_MISSING, { package: 'kicad' });

  const dir = await ws.scratch('eda.layout');
  const file = (name: string) => path.join(dir, name);
  const say = (stderr: string) => engineMessage(stderr).split(dir).join('<call folder>');
  try {
    // KiCad's own netlist of the schematic: the nets the board must carry, exactly.
    const staged = file('sch/board.kicad_pcb');
    await fs.mkdir(path.dirname(staged), { recursive: true });
    await stageSchematic(ws, schematic, staged, dir);
    await runKicadCli(
      ['sch', 'export', 'netlist', '--format', 'kicadsexpr', '-o', file('board.net'), file('sch/board.kicad_sch')],
      { scratch: dir, signal, given: req.schematic_path, board: file('sch/board.kicad_sch'), what: 'netlist' },
    );
    let netlist;
    try {
      netlist = readNetlist(await fs.readFile(file('board.net'), 'utf8'));
    } catch (err) {
      if (err instanceof NetlistError) throw new ToolError(err.message, { schematic_path: req.schematic_path });
      throw err;
    }
    if (!netlist.components.length)
      throw new InvalidArgumentsError(`schematic_path ${JSON.stringify(req.schematic_path)} has no symbols to place`, {
        schematic_path: req.schematic_path,
      });
    const libs = await resolveFootprints(netlist.components, req.schematic_path);

    const python = async (mode: string, input: unknown, out: string) => {
      await fs.writeFile(file(`${mode}.json`), JSON.stringify(input));
      const run = await runEngine(
        KICAD_PYTHON(),
        [path.join(PCBNEW_SCRIPTS, 'place_board.py'), mode, file(`${mode}.json`), out],
        { scratch: dir, signal, missing: KICAD_MISSING },
      );
      if (run.aborted) throw signal.reason ?? new ToolError('the layout was cancelled');
      if (run.exitCode === 2)
        throw new InvalidArgumentsError(`schematic_path ${JSON.stringify(req.schematic_path)}: ${say(run.stderr)}`, {
          schematic_path: req.schematic_path,
        });
      if (run.exitCode !== 0) throw new ToolError(`pcbnew (${mode}) failed: ${say(run.stderr)}`);
    };
    const root = FOOTPRINT_ROOT();
    await python('measure', { lib_root: root, footprints: libs }, file('measured.json'));
    const measured = (JSON.parse(await fs.readFile(file('measured.json'), 'utf8')) as { footprints: Measured[] })
      .footprints;
    const { parts, pairs } = placementParts(netlist, measured);
    const { width, height } = req.outline;
    const problem = {
      parts,
      outline: { width, height },
      pairs,
      rules: {
        edge_clearance: BOARD_RULES.courtyard_edge_mm,
        courtyard_gap: BOARD_RULES.courtyard_gap_mm,
        heat_distance: Math.min(BOARD_RULES.heat_distance_mm, Math.hypot(width, height) / 3),
      },
    };
    let placed;
    try {
      placed = place(problem, { seed: req.seed ?? 1 });
    } catch (err) {
      if (err instanceof PlacementError)
        throw new InvalidArgumentsError(err.message, { outline: req.outline, ...err.details });
      throw err;
    }

    const nets = padNets(netlist);
    const byRef = new Map(netlist.components.map((c) => [c.ref, c]));
    const libOf = new Map(libs.map((l) => [l.ref, l]));
    await python(
      'write',
      {
        lib_root: root,
        outline: { x: ORIGIN.x, y: ORIGIN.y, width, height },
        nets: netlist.nets.map((n) => n.name),
        footprints: placed.placements.map((pl) => {
          const c = byRef.get(pl.ref)!;
          return {
            ...libOf.get(pl.ref)!,
            value: c.value,
            path: c.path,
            sheetname: c.sheetname,
            sheetfile: c.sheetfile,
            x: ORIGIN.x + pl.x,
            y: ORIGIN.y + pl.y,
            rotation: pl.rotation,
            pads: Object.fromEntries(nets.get(pl.ref) ?? []),
          };
        }),
      },
      file('board.kicad_pcb'),
    );
    const stem = path.posix.basename(req.output_path, '.kicad_pcb');
    await fs.writeFile(
      file('board.kicad_pro'),
      projectFile(
        stem,
        netlist.nets.map((n) => n.name),
      ),
    );
    await fs.writeFile(file('board.kicad_dru'), rulesFile());
    const outAbs = await ws.moveInto(file('board.kicad_pcb'), req.output_path, 'output_path');
    const sibling = (ext: string) => req.output_path.replace(/\.kicad_pcb$/, `.${ext}`);
    await ws.moveInto(file('board.kicad_pro'), sibling('kicad_pro'), 'output_path');
    await ws.moveInto(file('board.kicad_dru'), sibling('kicad_dru'), 'output_path');

    const heat = parts.findIndex((p) => p.role === 'sensor');
    const reg = parts.findIndex((p) => p.role === 'regulator');
    const centre = (i: number) => {
      const pl = placed.placements[i]!;
      return { x: pl.x, y: pl.y };
    };
    return {
      board_path: ws.relative(outAbs),
      project_path: sibling('kicad_pro'),
      rules_path: sibling('kicad_dru'),
      outline: { width, height, origin: ORIGIN },
      footprints: parts.length,
      nets: netlist.nets.length,
      placements: placed.placements.map((pl, i) => ({
        ref: pl.ref,
        role: parts[i]!.role,
        x: pl.x,
        y: pl.y,
        rotation: pl.rotation,
      })),
      decoupling: pairs.map((d) => ({
        ...d,
        distance_mm: Math.round(pairDistance(problem, placed.placements, d) * 100) / 100,
      })),
      ...(heat >= 0 && reg >= 0
        ? {
            sensor_regulator_mm:
              Math.round(Math.hypot(centre(heat).x - centre(reg).x, centre(heat).y - centre(reg).y) * 100) / 100,
          }
        : {}),
      method: `simulated annealing, seed ${placed.seed}, ${placed.iterations} moves, ${placed.restarts} restart(s)`,
      wirelength_mm: Math.round(placed.terms.wirelength * 10) / 10,
      elapsed_ms: Math.round(performance.now() - started),
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
