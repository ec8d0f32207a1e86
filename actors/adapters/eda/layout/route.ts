import fs from 'node:fs/promises';
import { z } from 'zod';
import { findProgram } from '../../kit/sandbox.ts';
import { InvalidArgumentsError, ToolUnavailableError } from '../../kit/tool.ts';
import type { Workspace } from '../../kit/workspace.ts';
import { nextRevision } from '../auto-route.engine.ts';
import { loadWorkspaceBoard, stageBoard } from '../board-stage.ts';
import { KICAD_MISSING, pcbnewVersion } from '../engine.ts';
import { checkBoard, type BoardCheck } from './check.ts';
import { pourGround, stageFile, type PourResult } from './pour.ts';
import {
  pcbnewScript,
  ROUTE_METHODS,
  ROUTER_PROGRAM,
  routeStage,
  type StageEnv,
  type StageResult,
} from './route-stage.ts';

export const RouteBoardInputSchema = z.object({
  board_path: z.string().min(1).describe('The placed board (.kicad_pcb, its .kicad_pro beside it) in the workspace'),
  output_path: z.string().min(1).optional().describe('Where the routed board goes; default the next revision'),
  schematic_path: z.string().min(1).optional().describe("The board's schematic: the final check adds the parity"),
  method: z.enum(ROUTE_METHODS).default('topo_trbs'),
  power_class: z.string().min(1).default('Power').describe('The net class whose nets are routed at its width first'),
  pour_net: z.string().min(1).nullable().default('GND').describe('The net poured on both layers; null: no pour'),
  stitch_pitch_mm: z.number().min(1).max(50).default(5),
  clearance_scales: z.array(z.number().min(1).max(4)).min(1).max(8).default([1, 1.5, 2, 2.5, 3]),
  router_timeout_s: z.number().positive().max(600).default(60),
});
export type RouteBoardInput = z.input<typeof RouteBoardInputSchema>;

const Stats = z.object({
  unconnected: z.number().int(),
  tracks: z.number().int(),
  track_length_mm: z.number(),
  vias: z.number().int(),
  power: z
    .object({
      netclass: z.string(),
      width_mm: z.number(),
      nets: z.array(z.string()),
      tracks: z.number().int(),
      narrower: z.number().int(),
      min_width_mm: z.number(),
    })
    .nullable(),
  net_classes: z.record(z.string(), z.string()),
});
type Stats = z.infer<typeof Stats>;

/** What routeBoard returns: the routed board and the figures issue 31 asks for, measured on the written file. */
export interface RouteBoardResult {
  output_path: string;
  router: string;
  connections_to_route: number;
  connections_routed: number;
  /** connections_routed / connections_to_route (1 when there was nothing to route). */
  completion: number;
  track_length_mm: number;
  tracks: number;
  /** Vias the router placed (stitching vias apart). */
  vias: number;
  stitching_vias: number;
  pour: PourResult | null;
  power: Stats['power'];
  check: BoardCheck;
  stages: (StageResult & { name: string })[];
  warnings: string[];
  elapsed_ms: number;
}

/**
 * Routes a placed board on its two outer copper layers (issue 31 point 3; decision 0170): the power class's nets first
 * at that class's width, then the other nets at the Default class's, each stage with route-rnd run at several
 * clearance factors and the results merged where they pass DRC (route-stage.ts); then ground pours on both layers
 * filled by KiCad's zone filler with stitching vias (pour.ts), the pour net's connections the pour left open routed,
 * and the pour filled again. The board is read through the workspace's confinement (a path outside it, or a symlink
 * leading out, is INVALID_ARGUMENTS); every engine runs sandboxed in the call's folder, and only the finished board
 * (and its project, when none is there) lands in the workspace. KiCad 9's DRC (with the parity when schematic_path
 * is given) is run on the written board: completion, unconnected and errors are KiCad's counts, never assumed.
 */
export async function routeBoard(
  ws: Workspace,
  input: RouteBoardInput,
  signal: AbortSignal,
): Promise<RouteBoardResult> {
  const started = performance.now();
  const a = RouteBoardInputSchema.parse(input);
  if (!a.board_path.endsWith('.kicad_pcb'))
    throw new InvalidArgumentsError(`board_path ${JSON.stringify(a.board_path)} is not a .kicad_pcb file`, {
      board_path: a.board_path,
    });
  const loaded = await loadWorkspaceBoard(ws, a.board_path);
  if (a.output_path !== undefined) {
    if (!a.output_path.endsWith('.kicad_pcb'))
      throw new InvalidArgumentsError(`output_path ${JSON.stringify(a.output_path)} must end in .kicad_pcb`, {
        output_path: a.output_path,
      });
    await ws.resolveForWrite(a.output_path, 'output_path');
  }
  if (!(await pcbnewVersion())) throw new ToolUnavailableError(KICAD_MISSING, { package: 'kicad' });
  if (!(await findProgram(ROUTER_PROGRAM)))
    throw new ToolUnavailableError(`the autorouter ${ROUTER_PROGRAM} is not installed`, { program: ROUTER_PROGRAM });

  const dir = await ws.scratch('eda.layout_route');
  try {
    const boardAbs = await ws.resolveForRead(a.board_path, 'board_path');
    const say = (t: string) => t.split(boardAbs).join(a.board_path).split(dir).join('<call folder>');
    const env: StageEnv = {
      dir,
      signal,
      method: a.method,
      scales: a.clearance_scales,
      routerTimeoutMs: a.router_timeout_s * 1000,
      say,
    };
    const stats = async (board: string): Promise<Stats> => {
      const out = `${board}.stats.json`;
      await fs.writeFile(`${board}.stats-options.json`, JSON.stringify({ power_class: a.power_class }));
      await pcbnewScript(env, 'route_stats.py', [board, out, `${board}.stats-options.json`]);
      return Stats.parse(JSON.parse(await fs.readFile(out, 'utf8')));
    };

    let board = (await stageBoard(ws, loaded, dir)).board;
    const before = await stats(board);
    const warnings: string[] = [];
    const stages: RouteBoardResult['stages'] = [];
    const nets = Object.keys(before.net_classes);
    const pourNet = a.pour_net !== null && nets.includes(a.pour_net) ? a.pour_net : null;
    if (a.pour_net !== null && !pourNet) warnings.push(`no net ${a.pour_net} on the board: no pour`);
    if (!before.power) warnings.push(`no net class ${a.power_class} on the board: every net routed at Default width`);
    const powerNets = (before.power?.nets ?? []).filter((n) => n !== pourNet);
    const signalNets = nets.filter((n) => n !== pourNet && !powerNets.includes(n));
    const stage = async (name: string, opts: { nets: string[]; netclass?: string }) => {
      if (!opts.nets.length) return;
      const r = await routeStage(env, board, name, opts);
      stages.push({ name, ...r });
      warnings.push(...r.warnings);
      board = r.board;
    };
    await stage('power', { nets: powerNets, netclass: a.power_class });
    await stage('signal', { nets: signalNets });

    let pour: PourResult | null = null;
    if (pourNet) {
      const poured = stageFile(dir, 'poured');
      pour = await pourGround(env, board, poured, { net: pourNet, pitchMm: a.stitch_pitch_mm });
      board = poured;
      const pourClass = before.net_classes[pourNet] === a.power_class && before.power ? a.power_class : undefined;
      const routedBefore = stages.length;
      await stage('pour_net', { nets: [pourNet], ...(pourClass ? { netclass: pourClass } : {}) });
      if (stages.length > routedBefore && pour) {
        // Tracks added after the fill: the zones are filled again; the stitching figures stay the first fill's.
        const refilled = stageFile(dir, 'refilled');
        const again = await pourGround(env, board, refilled, {
          net: pourNet,
          pitchMm: a.stitch_pitch_mm,
          refill: true,
        });
        if (again) pour = { ...pour, zones: again.zones };
        board = refilled;
      }
    }
    const after = await stats(board);

    const target = a.output_path ?? ws.relative(await nextRevision(boardAbs));
    const outAbs = await ws.moveInto(board, target, 'output_path');
    const project = outAbs.replace(/\.kicad_pcb$/, '.kicad_pro');
    const projectExists = await fs.lstat(project).then(
      () => true,
      () => false,
    );
    const madeProject = board.replace(/\.kicad_pcb$/, '.kicad_pro');
    if (!projectExists && (await fs.stat(madeProject).catch(() => null)))
      await ws.moveInto(madeProject, ws.relative(project), 'output_path');
    const output = ws.relative(outAbs);
    const check = await checkBoard(
      ws,
      { board_path: output, ...(a.schematic_path ? { schematic_path: a.schematic_path } : {}) },
      signal,
    );

    const toRoute = before.unconnected;
    const routed = Math.max(0, toRoute - after.unconnected);
    const stitching = pour?.stitching_vias ?? 0;
    return {
      output_path: output,
      router: `${ROUTER_PROGRAM} ${a.method}`,
      connections_to_route: toRoute,
      connections_routed: routed,
      completion: toRoute === 0 ? 1 : Math.round((routed / toRoute) * 10_000) / 10_000,
      track_length_mm: after.track_length_mm,
      tracks: after.tracks,
      vias: after.vias - before.vias - stitching,
      stitching_vias: stitching,
      pour,
      power: after.power,
      check,
      stages,
      warnings,
      elapsed_ms: Math.round(performance.now() - started),
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
