import fs from 'node:fs/promises';
import path from 'node:path';
import { spawnEngine } from '../kit/engines/spawn.ts';
import { engineCommand } from '../kit/sandbox.ts';
import { ToolError, ToolUnavailableError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import {
  type BoardRules,
  type LoadedBoard,
  type LoadedSchematic,
  stageBoard,
  stagedStem,
  stageSchematic,
} from './board-stage.ts';
import { KICAD_CLI, KICAD_CLI_MISSING, kicadCliVersion } from './engine.ts';

/**
 * KiCad 9's command line (`kicad-cli pcb drc|export ...`) on a staged board, run as every engine is
 * (kit/sandbox.ts: bwrap, the call's scratch folder its only writable place, an environment of its own). kicad-cli
 * writes its settings on start: HOME, the XDG folders and KICAD_CONFIG_HOME point into a private `home/` of the call
 * folder, so every run starts from KiCad's defaults (no user's library tables or settings) and leaves nothing behind
 * (decision 0130). The board and its outputs are arguments, never code.
 */

/** Checks kicad-cli is KiCad 9 (probe cached a minute); TOOL_UNAVAILABLE naming the package and suite otherwise. */
export async function requireKicadCli(): Promise<string> {
  const version = await kicadCliVersion();
  if (!version)
    throw new ToolUnavailableError(KICAD_CLI_MISSING, {
      program: KICAD_CLI(),
      package: 'kicad',
      suite: 'bookworm-backports',
    });
  return version;
}

/** One kicad-cli run's result: its elapsed time; a failure is a ToolError quoting KiCad with the caller's paths. */
export interface CliRun {
  ms: number;
  stdout: string;
}

/**
 * Runs `kicad-cli <args>` in the sandbox with `scratch` writable. `given`/`board` let KiCad's messages name the
 * workspace path instead of the staged copy. An abort kills the process group and rejects with the signal's reason.
 */
export async function runKicadCli(
  args: string[],
  opts: { scratch: string; signal: AbortSignal; given: string; board: string; what: string },
): Promise<CliRun> {
  const { scratch, signal } = opts;
  if (signal.aborted) throw signal.reason;
  const home = path.join(scratch, 'home');
  // KiCad's temporary files (a job set plots into a folder of TMPDIR, copies to the output folder and leaves it):
  // under home/, removed with it once the call's work is done.
  const tmp = path.join(home, 'tmp');
  await fs.mkdir(tmp, { recursive: true });
  const cmd = await engineCommand(KICAD_CLI(), args, {
    scratch,
    missing: KICAD_CLI_MISSING,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
      KICAD_CONFIG_HOME: path.join(home, '.config/kicad'),
      TMPDIR: tmp,
    },
  });
  const started = performance.now();
  const run = await spawnEngine(cmd, { cwd: scratch, signal }).catch((e: Error) => {
    throw new ToolUnavailableError(`${KICAD_CLI_MISSING}: ${e.message}`, { program: KICAD_CLI(), package: 'kicad' });
  });
  if (run.aborted) throw signal.reason;
  const ms = Math.round(performance.now() - started);
  if (run.exitCode !== 0) {
    // KiCad's paths named as the caller knows them, and its terminal colours dropped (a job set's summary has them).
    const name = (l: string) =>
      l
        .split(opts.board)
        .join(opts.given)
        .split(scratch)
        .join('<call folder>')
        .replace(/\x1b\[[0-9;]*m/g, '');
    const log = `${run.stderr}\n${run.stdout}`
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .slice(-20)
      .map(name);
    const why = log.at(-1) || (run.signal ? `killed by ${run.signal}` : `exit code ${run.exitCode}`);
    throw new ToolError(`KiCad failed on ${opts.given} (${opts.what}): ${why}`, {
      file: opts.given,
      exit_code: run.exitCode,
      signal: run.signal,
      log,
    });
  }
  return { ms, stdout: run.stdout };
}

/** One job of a KiCad job set (`.kicad_jobset`, KiCad 9): its type (`pcb_export_gerbers`...) and its settings. */
export interface KicadJob {
  type: string;
  settings: Record<string, unknown>;
}

/** A staged board in a fresh call folder: where it is, where outputs go, and a runner bound to it. */
export interface StagedRun {
  scratch: string;
  board: string;
  outDir: string;
  version: string;
  /** The rules staged with the board: its project file's, or KiCad's defaults (decision 0151). */
  rules: BoardRules;
  cli(args: string[], what: string): Promise<CliRun>;
  /**
   * Runs `jobs` in one kicad-cli start (decision 0152): `kicad-cli jobset run --stop-on-error` on a job set written
   * into the call folder, every output into `outDir`. KiCad loads the board once for all of them.
   */
  jobset(jobs: KicadJob[], what: string): Promise<CliRun>;
}

/**
 * The job set file of `jobs`, all written to `outDir` (a `folder` output). Ids are fixed strings; paths are data
 * KiCad reads, never code.
 */
export function jobsetJson(jobs: KicadJob[], outDir: string): string {
  const set = {
    meta: { version: 1 },
    jobs: jobs.map((j, i) => ({ id: `job-${i + 1}`, type: j.type, description: '', settings: j.settings })),
    outputs: [{ id: 'out', type: 'folder', description: '', only: [], settings: { output_path: outDir } }],
  };
  return `${JSON.stringify(set, null, 2)}\n`;
}

/**
 * `kicad-cli jobset run` opens a project, not a board: a board staged without its `.kicad_pro` gets the smallest
 * project KiCad reads (its name only), which holds no rule, so KiCad's defaults apply as they do to a board alone.
 */
async function projectOf(board: string, rules: BoardRules): Promise<string> {
  const project = board.replace(/\.kicad_pcb$/, '.kicad_pro');
  if (rules.project_file === null)
    await fs.writeFile(project, JSON.stringify({ meta: { filename: path.basename(project), version: 1 } }));
  return project;
}

/**
 * One call's kicad-cli work on a board read by loadWorkspaceBoard: checks kicad-cli is KiCad 9, stages the board (and
 * the schematic when given) in a fresh scratch folder of the call and runs `work` there. A failure (KiCad refuses the
 * board, or the call is aborted) removes the call folder, leaving nothing behind.
 */
export async function withStagedBoard<T>(
  ws: Workspace,
  loaded: LoadedBoard,
  tool: string,
  signal: AbortSignal,
  work: (s: StagedRun) => Promise<T>,
  schematic?: LoadedSchematic,
): Promise<T> {
  const version = await requireKicadCli();
  const scratch = await ws.scratch(tool);
  try {
    const { board, rules } = await stageBoard(ws, loaded, scratch);
    if (schematic) await stageSchematic(ws, schematic, board, scratch);
    const outDir = path.join(scratch, 'out');
    await fs.mkdir(outDir, { recursive: true });
    const cli = (args: string[], what: string) =>
      runKicadCli(args, { scratch, signal, given: loaded.given, board, what });
    const jobset = async (jobs: KicadJob[], what: string) => {
      const file = path.join(path.dirname(board), `${stagedStem(loaded.given)}.kicad_jobset`);
      await fs.writeFile(file, jobsetJson(jobs, outDir));
      const project = await projectOf(board, rules);
      return cli(['jobset', 'run', '--stop-on-error', '--file', file, project], what);
    };
    const result = await work({ scratch, board, outDir, version, rules, cli, jobset });
    // The staged inputs and KiCad's private settings go; the outputs stay in out/.
    for (const d of ['board', 'home']) await fs.rm(path.join(scratch, d), { recursive: true, force: true });
    return result;
  } catch (err) {
    await fs.rm(scratch, { recursive: true, force: true });
    throw err;
  }
}
