import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnEngine } from '../kit/engines/spawn.ts';
import { engineCommand } from '../kit/sandbox.ts';
import { InvalidArgumentsError, ToolError, ToolUnavailableError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { type Board, KICAD6_BOARD_VERSION } from '../../../workers/eda/board.ts';
import { EdaReadError } from '../../../workers/eda/pool.ts';
import { edaPool } from './load.ts';
import { KICAD_MISSING, KICAD_PYTHON, pcbnewVersion } from './engine.ts';

/**
 * Runs KiCad's board engine (the Python module `pcbnew`) on a board of the workspace: a FIXED script of ours
 * (`pcbnew/drc.py`, `pcbnew/plot.py`) gets the board path and an output folder as arguments, so the board is data and
 * never code. The board is read through the workspace's confinement, checked by the native reader first (a file that
 * is not a KiCad 5/6 board never reaches KiCad, and nothing is written for it), then copied with its project and rules
 * files into the call's scratch folder, where the engine runs sandboxed (kit/sandbox.ts) with that folder its only
 * writable place, HOME and the XDG folders inside it, and `python3 -I` (no PYTHON* variables, no user site).
 */

export type PcbnewScript = 'drc' | 'plot';

/** Largest board accepted (the largest demo, video.kicad_pcb, is 7.4 MB). */
export const MAX_BOARD_BYTES = 64 * 1024 * 1024;
/** Most bytes kept of each of stdout and stderr. */
const MAX_STREAM_BYTES = 1 << 20;

const scriptPath = (s: PcbnewScript) => fileURLToPath(new URL(`./pcbnew/${s}.py`, import.meta.url));

/** A board of the workspace, read and checked natively; its bytes are copied later by stageBoard. */
export interface LoadedBoard {
  board: Board;
  /** The workspace path as the caller gave it. */
  given: string;
  bytes: Buffer;
}

/** Reads and checks a workspace board; a refusal names the argument, the file and the line or token. */
export async function loadWorkspaceBoard(ws: Workspace, given: string, argName = 'board_path'): Promise<LoadedBoard> {
  const abs = await ws.resolve(given, argName);
  const size = await fs.stat(abs).then(
    (s) => s.size,
    () => -1,
  );
  if (size > MAX_BOARD_BYTES)
    throw new InvalidArgumentsError(`${argName} ${JSON.stringify(given)} is ${size} bytes, over ${MAX_BOARD_BYTES}`, {
      [argName]: given,
    });
  const bytes = await ws.read(given, argName);
  let board: Board;
  try {
    board = await edaPool().board(given, bytes.toString('utf8'));
  } catch (err) {
    if (err instanceof EdaReadError)
      throw new ToolError(err.message, { [argName]: given, file: given, ...(err.line ? { line: err.line } : {}) });
    throw err;
  }
  if (board.version > KICAD6_BOARD_VERSION)
    throw new ToolError(
      `${given}: the board is format ${board.version}, written by a KiCad newer than this engine (KiCad 6 reads up to ${KICAD6_BOARD_VERSION})`,
      { [argName]: given, file: given, version: board.version },
    );
  return { board, given, bytes };
}

/** KiCad's version, or TOOL_UNAVAILABLE naming the Debian package when pcbnew does not import. */
export async function requirePcbnew(): Promise<string> {
  const version = await pcbnewVersion();
  if (!version) throw new ToolUnavailableError(KICAD_MISSING, { program: KICAD_PYTHON(), package: 'kicad' });
  return version;
}

/**
 * Copies the board into `<scratch>/board/` under a safe version of its name (KiCad names its outputs after it), with
 * the sibling `.kicad_pro` (DRC severities, exclusions) and `.kicad_dru` (custom rules) when the workspace has them.
 */
export async function stageBoard(ws: Workspace, loaded: LoadedBoard, scratch: string): Promise<string> {
  const dir = path.join(scratch, 'board');
  await fs.mkdir(dir, { recursive: true });
  const stem = path.posix.basename(loaded.given).replace(/\.kicad_pcb$/i, '');
  const safe = stem.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '') || 'board';
  const copy = path.join(dir, `${safe}.kicad_pcb`);
  await fs.writeFile(copy, loaded.bytes);
  const sibling = loaded.given.replace(/\.kicad_pcb$/i, '');
  if (sibling !== loaded.given) {
    for (const ext of ['kicad_pro', 'kicad_dru']) {
      // Optional companions: one that is missing, or refused by the confinement rule, is simply not used.
      const data = await ws.read(`${sibling}.${ext}`, 'board_path').catch(() => undefined);
      if (data) await fs.writeFile(path.join(dir, `${safe}.${ext}`), data);
    }
  }
  return copy;
}

/**
 * Runs one of our scripts on a staged board, `outDir` (inside `scratch`) its output folder. Resolves with the JSON
 * line the script prints last; a failed run is a ToolError quoting the engine; an abort kills the process group.
 */
export async function runPcbnew(
  script: PcbnewScript,
  opts: { board: string; given: string; outDir: string; scratch: string; signal: AbortSignal },
): Promise<Record<string, unknown>> {
  const { board, given, outDir, scratch, signal } = opts;
  if (signal.aborted) throw signal.reason;
  const home = path.join(scratch, 'home');
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(outDir, { recursive: true });
  const cmd = await engineCommand(KICAD_PYTHON(), ['-I', scriptPath(script), board, outDir], {
    scratch,
    missing: KICAD_MISSING,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
    },
  });
  if (signal.aborted) throw signal.reason;
  const run = await spawnEngine(cmd, { cwd: scratch, signal }).catch((e: Error) => {
    throw new ToolUnavailableError(`${KICAD_MISSING}: ${e.message}`, { program: KICAD_PYTHON(), package: 'kicad' });
  });
  if (run.aborted) throw signal.reason;
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  let parsed: unknown;
  try {
    parsed = run.exitCode === 0 ? JSON.parse(last) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object') {
    // KiCad names the staged copy; the caller knows the board by its workspace path.
    const log = run.stderr
      .trim()
      .split('\n')
      .slice(-20)
      .map((l) => l.split(board).join(given));
    const why = log.at(-1) || (run.signal ? `killed by ${run.signal}` : `exit code ${run.exitCode}`);
    throw new ToolError(`KiCad's board engine failed on ${given} (${script}): ${why}`, {
      file: given,
      exit_code: run.exitCode,
      signal: run.signal,
      log,
    });
  }
  return parsed as Record<string, unknown>;
}

/**
 * One engine run of a call on a board read by `loadWorkspaceBoard`: checks that pcbnew imports, stages the board in a
 * fresh scratch folder of the call and runs `script` there. A run that fails (KiCad refuses the board, or the call is
 * aborted) leaves nothing behind.
 */
export async function runOnStagedBoard(
  ws: Workspace,
  loaded: LoadedBoard,
  tool: string,
  script: PcbnewScript,
  signal: AbortSignal,
): Promise<{ run: Record<string, unknown>; scratch: string; outDir: string }> {
  await requirePcbnew();
  const scratch = await ws.scratch(tool);
  const board = await stageBoard(ws, loaded, scratch);
  const outDir = path.join(scratch, 'out');
  const run = await runPcbnew(script, { board, given: loaded.given, outDir, scratch, signal }).catch(
    async (err: unknown) => {
      await fs.rm(scratch, { recursive: true, force: true });
      throw err;
    },
  );
  return { run, scratch, outDir };
}
