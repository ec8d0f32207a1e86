import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, InvalidArgumentsError, ToolError, ToolUnavailableError } from '../kit/tool.ts';
import { findProgram } from '../kit/sandbox.ts';
import type { Workspace } from '../kit/workspace.ts';
import { KICAD_MISSING, KICAD_PYTHON, pcbnewVersion } from './engine.ts';
import { parseSexpr, SexprError } from '../../../workers/eda/sexpr.ts';
import {
  engineMessage,
  nextRevision,
  parseDrcReport,
  PCBNEW_SCRIPTS,
  runEngine,
  type EngineRun,
} from './auto-route.engine.ts';

/** The router (ROUTING.md): route-rnd's topological rubber-band-sketch method, chosen on completion and DRC. */
const ROUTER_PROGRAM = 'route-rnd';
const ROUTER_METHOD = 'topo_trbs';
const ROUTER_MISSING = 'the autorouter route-rnd is not installed (not found on PATH; Debian package route-rnd)';
const DEFAULT_TIMEOUT_S = 120;

const AutoRouteInput = z.object({
  board_path: z.string().min(1).describe('The KiCad 6 board (.kicad_pcb) in the workspace'),
  output_path: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Where the routed board goes (.kicad_pcb, in the workspace); default: the next revision beside the input',
    ),
  nets: z.array(z.string().min(1)).min(1).optional().describe('Route only these nets (names as on the board)'),
  timeout_seconds: z.number().positive().max(3600).optional().describe('Limit for the router run (default 120)'),
});

const AutoRouteOutput = z.object({
  output_path: z.string(),
  routed_connections: z.number().int(),
  unrouted_before: z.number().int(),
  unrouted_after: z.number().int(),
  completion: z.number(),
  tracks_added: z.number().int(),
  vias_added: z.number().int(),
  drc: z.object({
    violation_count: z.number().int(),
    unconnected_count: z.number().int(),
    by_type: z.record(z.string(), z.number().int()),
  }),
  routes_torn_up: z.number().int().describe('Routes removed because they touched copper of another net (a short)'),
  router: z.string(),
  elapsed_ms: z.number().int(),
  objects_without_net: z.number().int().optional(),
  skipped: z.record(z.string(), z.number().int()).optional(),
  router_warning: z.string().optional(),
});

/**
 * `eda.auto_route` (class D, phase 2; held for a person): routes a KiCad 6 board's unrouted connections with route-rnd
 * and writes a new revision of the board through KiCad's own pcbnew, then runs KiCad's DRC on the written file.
 * Export (pcbnew/route_export.py), routing and import (pcbnew/route_import.py) each run sandboxed with the call's
 * scratch folder the only writable place; the board is data passed by path. Nothing lands in the workspace unless
 * the whole chain succeeded.
 */
export function autoRouteTool(ws: Workspace) {
  return defineTool({
    name: 'auto_route',
    title: 'Autoroute a KiCad board',
    description:
      "Route the unrouted connections of a KiCad 6 board (.kicad_pcb) with route-rnd's topological router, write the " +
      'result as a new board revision (default: board.r2.kicad_pcb beside the input; never the input unless output_path ' +
      "names it), then run KiCad's DRC on it. nets limits routing to those net names (the other pads stay obstacles). " +
      'A route that would short another net is torn up (routes_torn_up). Returns unrouted connections before and after ' +
      '(KiCad connectivity), completion, tracks and vias added, and the DRC violation counts by type of the written board.',
    input: AutoRouteInput,
    output: AutoRouteOutput,
    handler: async (a, tc) => {
      const started = performance.now();
      const boardAbs = await ws.resolveForRead(a.board_path, 'board_path');
      if (!boardAbs.endsWith('.kicad_pcb'))
        throw new InvalidArgumentsError(`board_path ${JSON.stringify(a.board_path)} is not a .kicad_pcb file`, {
          board_path: a.board_path,
        });
      checkBoard(a.board_path, (await ws.read(a.board_path, 'board_path')).toString('utf8'));
      if (a.output_path !== undefined && !a.output_path.endsWith('.kicad_pcb'))
        throw new InvalidArgumentsError(`output_path ${JSON.stringify(a.output_path)} must end in .kicad_pcb`, {
          output_path: a.output_path,
        });
      // Confinement of an explicit output is checked by the write rule before any work (no write onto a symlink; a
      // refused path creates nothing).
      if (a.output_path !== undefined) await ws.resolveForWrite(a.output_path, 'output_path');

      if (!(await pcbnewVersion())) throw new ToolUnavailableError(KICAD_MISSING, { package: 'kicad' });
      if (!(await findProgram(ROUTER_PROGRAM)))
        throw new ToolUnavailableError(ROUTER_MISSING, { program: ROUTER_PROGRAM, package: 'route-rnd' });

      const dir = await ws.scratch('eda.auto_route');
      const file = (name: string) => path.join(dir, name);
      const python = (script: string, args: string[]) =>
        runEngine(KICAD_PYTHON(), [path.join(PCBNEW_SCRIPTS, script), ...args], {
          scratch: dir,
          signal: tc.signal,
          missing: KICAD_MISSING,
        });
      // Engine messages name the caller's paths, not the server's.
      const say = (stderr: string) =>
        engineMessage(stderr).split(boardAbs).join(a.board_path).split(dir).join(ws.relative(dir));
      const cancelled = (run: EngineRun, what: string) => {
        if (run.aborted && tc.signal.aborted) throw tc.signal.reason ?? new ToolError(`${what} was cancelled`);
      };

      try {
        tc.progress(0.05, 'exporting the routing problem with pcbnew');
        if (a.nets) await fs.writeFile(file('options.json'), JSON.stringify({ nets: a.nets }));
        const exp = await python('route_export.py', [
          boardAbs,
          file('request.tdx'),
          file('request.json'),
          ...(a.nets ? [file('options.json')] : []),
        ]);
        cancelled(exp, 'the export');
        if (exp.exitCode === 2)
          throw new InvalidArgumentsError(
            `board_path ${JSON.stringify(a.board_path)}: KiCad cannot read the board: ${say(exp.stderr)}`,
            { board_path: a.board_path },
          );
        if (exp.exitCode === 3)
          throw new InvalidArgumentsError(`nothing to route on ${a.board_path}: ${say(exp.stderr)}`, {
            board_path: a.board_path,
            ...(a.nets ? { nets: a.nets } : {}),
          });
        if (exp.exitCode !== 0) throw new ToolError(`pcbnew export failed: ${say(exp.stderr)}`);
        const request = JSON.parse(await fs.readFile(file('request.json'), 'utf8')) as { unrouted_before: number };

        tc.progress(0.2, `routing with ${ROUTER_PROGRAM} ${ROUTER_METHOD}`);
        const timeoutS = a.timeout_seconds ?? DEFAULT_TIMEOUT_S;
        const routerSignal = AbortSignal.any([tc.signal, AbortSignal.timeout(timeoutS * 1000)]);
        const route = await runEngine(
          ROUTER_PROGRAM,
          ['-m', ROUTER_METHOD, '-o', file('result.tdx'), file('request.tdx')],
          { scratch: dir, signal: routerSignal, missing: ROUTER_MISSING },
        );
        cancelled(route, 'the router');
        if (route.aborted) throw new ToolError(`${ROUTER_PROGRAM} did not finish within ${timeoutS} s`);
        // A crash (an assertion aborts it) leaves a result cut anywhere: refused. An error exit keeps what it routed.
        if (route.signal)
          throw new ToolError(`${ROUTER_PROGRAM} crashed (${route.signal}): ${say(route.stderr)}`, {
            router: `${ROUTER_PROGRAM} ${ROUTER_METHOD}`,
          });
        const routed = await fs.stat(file('result.tdx')).then(
          (s) => s.size > 0,
          () => false,
        );
        if (!routed)
          throw new ToolError(`${ROUTER_PROGRAM} wrote no result (exit code ${route.exitCode}): ${say(route.stderr)}`);

        // The design rules of a KiCad 6 board live in its project file: the revision gets a copy, read by the DRC.
        const projectRel = ws.relative(boardAbs.replace(/\.kicad_pcb$/, '.kicad_pro'));
        const projectText = await ws.read(projectRel, 'board_path').catch(() => undefined);
        if (projectText) await fs.writeFile(file('routed.kicad_pro'), projectText);

        tc.progress(0.7, 'importing the routes with pcbnew and running DRC');
        const imp = await python('route_import.py', [
          boardAbs,
          file('result.tdx'),
          file('routed.kicad_pcb'),
          file('drc.rpt'),
          file('routed.json'),
        ]);
        cancelled(imp, 'the import');
        if (imp.exitCode !== 0) throw new ToolError(`pcbnew import failed: ${say(imp.stderr)}`);
        const result = JSON.parse(await fs.readFile(file('routed.json'), 'utf8')) as {
          unrouted_after: number;
          added: { tracks: number; vias: number; without_net: number; torn_up: number };
          skipped: Record<string, number>;
        };
        const drc = parseDrcReport(await fs.readFile(file('drc.rpt'), 'utf8'));

        const target = a.output_path ?? ws.relative(await nextRevision(boardAbs));
        const outAbs = await ws.moveInto(file('routed.kicad_pcb'), target, 'output_path');
        tc.outputFiles.push(ws.relative(outAbs));
        const project = outAbs.replace(/\.kicad_pcb$/, '.kicad_pro');
        if (!(await exists(project, true)) && (await exists(file('routed.kicad_pro')))) {
          await ws.moveInto(file('routed.kicad_pro'), ws.relative(project), 'output_path');
          tc.outputFiles.push(ws.relative(project));
        }

        const before = request.unrouted_before;
        const after = result.unrouted_after;
        const routedConnections = Math.max(0, before - after);
        return {
          output_path: ws.relative(outAbs),
          routed_connections: routedConnections,
          unrouted_before: before,
          unrouted_after: after,
          completion: before === 0 ? 1 : Math.round((routedConnections / before) * 10_000) / 10_000,
          tracks_added: result.added.tracks,
          vias_added: result.added.vias,
          drc,
          routes_torn_up: result.added.torn_up,
          router: `${ROUTER_PROGRAM} ${ROUTER_METHOD}`,
          elapsed_ms: Math.round(performance.now() - started),
          ...(result.added.without_net ? { objects_without_net: result.added.without_net } : {}),
          ...(Object.keys(result.skipped).length ? { skipped: result.skipped } : {}),
          // route-rnd's topological router can stop with an error after writing what it routed: kept, and said.
          ...(route.exitCode !== 0
            ? { router_warning: `${ROUTER_PROGRAM} exited with code ${route.exitCode}: ${say(route.stderr)}` }
            : {}),
        };
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  });
}

/** A KiCad 6 board file, checked natively before any engine runs: malformed text names the file, line and token. */
function checkBoard(name: string, text: string): void {
  let root;
  try {
    root = parseSexpr(text);
  } catch (err) {
    if (err instanceof SexprError)
      throw new InvalidArgumentsError(
        `board_path ${JSON.stringify(name)} is not a readable KiCad board: ${err.message}`,
        {
          board_path: name,
          line: err.line,
          ...(err.token ? { token: err.token } : {}),
        },
      );
    throw err;
  }
  if (root[0] !== 'kicad_pcb')
    throw new InvalidArgumentsError(
      `board_path ${JSON.stringify(name)} is not a KiCad board: its top-level list is (${root[0]} ...), not (kicad_pcb ...)`,
      { board_path: name },
    );
}

const exists = (p: string, link = false) =>
  (link ? fs.lstat(p) : fs.stat(p)).then(
    () => true,
    () => false,
  );
