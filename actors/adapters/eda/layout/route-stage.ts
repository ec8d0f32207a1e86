import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../../kit/tool.ts';
import { KICAD_MISSING, KICAD_PYTHON } from '../engine.ts';
import { engineMessage, PCBNEW_SCRIPTS, runEngine } from '../auto-route.engine.ts';

/** route-rnd's three methods (ROUTING.md); the layout's default is chosen there on the generated boards. */
export const ROUTE_METHODS = ['topo_trbs', 'horver', 'topo_crbs'] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

export const ROUTER_PROGRAM = 'route-rnd';
const ROUTER_MISSING = 'the autorouter route-rnd is not installed (not found on PATH; Debian package route-rnd)';

/** One call's engine runs: its scratch folder, its signal, the router's limit per run. */
export interface StageEnv {
  dir: string;
  signal: AbortSignal;
  method: RouteMethod;
  /** Clearance factors given to the router, one route-rnd run each (route_export.py's clearance_scale). */
  scales: readonly number[];
  routerTimeoutMs: number;
  /** Messages name the caller's paths: the server's folders replaced. */
  say(stderr: string): string;
}

/** What a stage did: connections open before and after, each router run's outcome, warnings. */
export interface StageResult {
  board: string;
  open_before: number;
  open_after: number;
  open_nets: string[];
  runs: { scale: number; exit: number | null; ms: number; unrouted_after?: number }[];
  warnings: string[];
}

interface ImportSummary {
  unrouted_after: number;
  open_nets: string[];
  added: { tracks: number; vias: number; torn_up: number };
}

/** Runs one of our pcbnew scripts sandboxed; a non-zero exit is a ToolError quoting pcbnew (exit 3: null). */
export async function pcbnewScript(env: StageEnv, script: string, args: string[]): Promise<'done' | 'nothing'> {
  const run = await runEngine(KICAD_PYTHON(), [path.join(PCBNEW_SCRIPTS, script), ...args], {
    scratch: env.dir,
    signal: env.signal,
    missing: KICAD_MISSING,
  });
  if (run.aborted) throw env.signal.reason ?? new ToolError(`${script} was cancelled`);
  if (run.exitCode === 3) return 'nothing';
  if (run.exitCode !== 0) throw new ToolError(`pcbnew ${script} failed: ${env.say(run.stderr)}`);
  return 'done';
}

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await fs.readFile(file, 'utf8')) as T;

/**
 * One routing stage: the open connections of `nets` (all open nets when undefined) routed with the net class
 * `netclass`'s width and vias (the Default class when undefined). route-rnd runs once per clearance factor on the
 * stage's input board (a second route-rnd pass over its own result routes little or aborts, ROUTING.md); each result
 * is imported with every route in an error-severity DRC violation torn up whole (route_import.py, tear_up errors),
 * the best one first, then the others' routes for nets still open merged on top, again torn up where they violate.
 * So what a stage leaves passes DRC, and a connection no run could route stays open and counted, never faked.
 */
export async function routeStage(
  env: StageEnv,
  input: string,
  name: string,
  opts: { nets?: string[]; netclass?: string },
): Promise<StageResult> {
  const f = (n: string) => path.join(env.dir, `${name}.${n}`);
  const runs: StageResult['runs'] = [];
  const warnings: string[] = [];
  const results: { scale: number; file: string }[] = [];
  let openBefore = -1;
  for (const [i, scale] of env.scales.entries()) {
    // Existing tracks trimmed and pad corners jittered by 1 um: both keep route-rnd off its degenerate cases.
    const opt = { clearance_scale: scale, trim_tracks: true, jitter_nm: 1000, ...opts };
    await fs.writeFile(f(`export${i}.json`), JSON.stringify(opt));
    const exp = await pcbnewScript(env, 'route_export.py', [
      input,
      f(`req${i}.tdx`),
      f(`req${i}.json`),
      f(`export${i}.json`),
    ]);
    if (exp === 'nothing') return { board: input, open_before: 0, open_after: 0, open_nets: [], runs, warnings };
    openBefore = (await readJson<{ unrouted_before: number }>(f(`req${i}.json`))).unrouted_before;
    const started = performance.now();
    const signal = AbortSignal.any([env.signal, AbortSignal.timeout(env.routerTimeoutMs)]);
    const route = await runEngine(ROUTER_PROGRAM, ['-m', env.method, '-o', f(`res${i}.tdx`), f(`req${i}.tdx`)], {
      scratch: env.dir,
      signal,
      missing: ROUTER_MISSING,
    });
    if (env.signal.aborted) throw env.signal.reason ?? new ToolError('the router was cancelled');
    const ms = Math.round(performance.now() - started);
    runs.push({ scale, exit: route.exitCode, ms });
    // A crash (an assertion; under bwrap the exit code is 128 + the signal) or a timeout leaves a result cut
    // anywhere: that run is dropped, and said. So is a run that wrote nothing.
    const at = `${name}: ${ROUTER_PROGRAM} ${env.method} at clearance x${scale}`;
    const why = engineMessage(env.say(route.stderr));
    if (route.aborted) {
      warnings.push(`${at} did not finish within ${env.routerTimeoutMs / 1000} s`);
      continue;
    }
    if (route.signal || (route.exitCode ?? 0) >= 128) {
      warnings.push(`${at} crashed (${route.signal ?? `exit ${route.exitCode}`}): ${why}`);
      continue;
    }
    const wrote = await fs.stat(f(`res${i}.tdx`)).then(
      (s) => s.size > 0,
      () => false,
    );
    if (!wrote) {
      warnings.push(`${at} wrote no result (exit ${route.exitCode}): ${why}`);
      continue;
    }
    if (route.exitCode !== 0) warnings.push(`${at} exited ${route.exitCode}, its partial result kept: ${why}`);
    results.push({ scale, file: f(`res${i}.tdx`) });
  }
  if (!results.length)
    return { board: input, open_before: openBefore, open_after: openBefore, open_nets: [], runs, warnings };

  // Each result on the stage's input, torn up where it violates; ranked by what is left open.
  const ranked: { scale: number; file: string; left: number }[] = [];
  for (const [i, r] of results.entries()) {
    await fs.writeFile(f('import.json'), JSON.stringify({ tear_up: 'errors' }));
    await pcbnewScript(env, 'route_import.py', [
      input,
      r.file,
      f(`try${i}.kicad_pcb`),
      f(`try${i}.rpt`),
      f(`try${i}.json`),
      f('import.json'),
    ]);
    const s = await readJson<ImportSummary>(f(`try${i}.json`));
    runs.find((x) => x.scale === r.scale)!.unrouted_after = s.unrouted_after;
    ranked.push({ ...r, left: s.unrouted_after });
  }
  ranked.sort((a, b) => a.left - b.left);
  let board = f(`try${results.indexOf(results.find((r) => r.file === ranked[0]!.file)!)}.kicad_pcb`);
  let summary = await readJson<ImportSummary>(board.replace(/\.kicad_pcb$/, '.json'));
  for (const [k, r] of ranked.slice(1).entries()) {
    const open = summary.open_nets.filter((n) => !opts.nets || opts.nets.includes(n));
    if (!open.length) break;
    await fs.writeFile(f('merge.json'), JSON.stringify({ tear_up: 'errors', nets: open }));
    const next = f(`merge${k}.kicad_pcb`);
    await pcbnewScript(env, 'route_import.py', [
      board,
      r.file,
      next,
      f(`merge${k}.rpt`),
      f(`merge${k}.json`),
      f('merge.json'),
    ]);
    board = next;
    summary = await readJson<ImportSummary>(f(`merge${k}.json`));
  }
  return {
    board,
    open_before: openBefore,
    open_after: summary.unrouted_after,
    open_nets: summary.open_nets,
    runs,
    warnings,
  };
}
