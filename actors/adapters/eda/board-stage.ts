import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InvalidArgumentsError, ToolError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import type { Board } from '../../../workers/eda/board.ts';
import { EdaReadError } from '../../../workers/eda/pool.ts';
import { slimBoardText } from './board-slim.ts';
import { edaPool, loadDesign } from './load.ts';

/**
 * A workspace board (and, for the schematic parity, its schematic) staged for KiCad's command line: the board is read
 * through the workspace's confinement, checked by the native reader first (a file that is not a KiCad board never
 * reaches KiCad, and nothing is written for it), then copied with its project and rules files into the call's scratch
 * folder, where kicad-cli runs sandboxed (kicad-cli.ts) with that folder its only writable place.
 */

/**
 * Largest board accepted, 96 MiB (decision 0150): every board KiCad ships opens (the largest, KiCad 9's
 * vme-wren.kicad_pcb, is 69.6 MB), and what a call writes stays inside the spec's 256 MB adapter disk limit: the
 * staged copy of the board, its fabrication files (0.76 times the board on video) and, while KiCad's job set runs,
 * KiCad's own temporary copy of them: 100.7 MB x (1 + 2 x 0.76) = 254 MB.
 */
export const MAX_BOARD_BYTES = 96 * 1024 * 1024;

/**
 * The newest board format the engine reads: KiCad 9.0's `(version 20241229)`. KiCad keeps the format within a major
 * release; a newer file was written by a later KiCad and is refused naming its version (decision 0130).
 */
export const KICAD9_BOARD_VERSION = 20241229;

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
    // Zone fills and embedded files left out: the check never reads them (board-slim.ts, decision 0150).
    board = await edaPool().board(given, slimBoardText(bytes.toString('utf8')));
  } catch (err) {
    if (err instanceof EdaReadError)
      throw new ToolError(err.message, { [argName]: given, file: given, ...(err.line ? { line: err.line } : {}) });
    throw err;
  }
  if (board.version > KICAD9_BOARD_VERSION)
    throw new ToolError(
      `${given}: the board is format ${board.version}, written by a KiCad newer than this engine (KiCad 9 reads up to ${KICAD9_BOARD_VERSION})`,
      { [argName]: given, file: given, version: board.version },
    );
  return { board, given, bytes };
}

/** The name KiCad's outputs take after the staged board: the board's stem made safe. */
export function stagedStem(given: string): string {
  const stem = path.posix.basename(given).replace(/\.kicad_pcb$/i, '');
  return stem.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '') || 'board';
}

/**
 * Whose design rules KiCad checks and plots with (decision 0151): the board's project file (`.kicad_pro` beside it:
 * net classes, constraints, severities, exclusions) and its custom rules (`.kicad_dru`), each the workspace path
 * staged or null. Without a project file KiCad 9 applies its own default rules.
 */
export const BoardRulesSchema = z
  .object({
    source: z
      .enum(['project', 'kicad_defaults'])
      .describe("project: the board's .kicad_pro was beside it and used; kicad_defaults: none was, KiCad 9's defaults"),
    project_file: z.string().nullable().describe('Workspace path of the project file used, or null'),
    custom_rules_file: z.string().nullable().describe('Workspace path of the custom rules (.kicad_dru) used, or null'),
  })
  .describe("Whose design rules KiCad applied: the board's project file or KiCad 9's defaults");
export type BoardRules = z.infer<typeof BoardRulesSchema>;

/** The staged board (absolute path of the copy) and the rules staged with it. */
export interface StagedBoard {
  board: string;
  rules: BoardRules;
}

/**
 * Copies the board into `<scratch>/board/` under a safe version of its name (KiCad names its outputs after it), with
 * the sibling `.kicad_pro` (DRC severities, exclusions) and `.kicad_dru` (custom rules) when the workspace has them.
 */
export async function stageBoard(ws: Workspace, loaded: LoadedBoard, scratch: string): Promise<StagedBoard> {
  const dir = path.join(scratch, 'board');
  await fs.mkdir(dir, { recursive: true });
  const safe = stagedStem(loaded.given);
  const copy = path.join(dir, `${safe}.kicad_pcb`);
  await fs.writeFile(copy, loaded.bytes);
  const sibling = loaded.given.replace(/\.kicad_pcb$/i, '');
  const staged: Record<string, string | null> = { kicad_pro: null, kicad_dru: null };
  if (sibling !== loaded.given) {
    for (const ext of ['kicad_pro', 'kicad_dru']) {
      // Optional companions: one that is missing, or refused by the confinement rule, is simply not used.
      const data = await ws.read(`${sibling}.${ext}`, 'board_path').catch(() => undefined);
      if (!data) continue;
      await fs.writeFile(path.join(dir, `${safe}.${ext}`), data);
      staged[ext] = `${sibling}.${ext}`;
    }
  }
  const rules: BoardRules = {
    source: staged.kicad_pro ? 'project' : 'kicad_defaults',
    project_file: staged.kicad_pro ?? null,
    custom_rules_file: staged.kicad_dru ?? null,
  };
  return { board: copy, rules };
}

/**
 * The sentence a result carries when the board came without its project file (decision 0151): the check or the
 * plot used KiCad 9's default rules, which may flag what the designer's rules allow or pass what they forbid.
 */
export function defaultRulesWarning(given: string): string {
  const project = given.replace(/\.kicad_pcb$/i, '') + '.kicad_pro';
  return `no project file ${project} beside the board: KiCad 9's default design rules, net classes and severities were used, not the designer's; attach the .kicad_pro to check against the board's own rules`;
}

/** A schematic hierarchy read and checked natively: its files as workspace paths, the root first. */
export interface LoadedSchematic {
  given: string;
  files: string[];
}

/**
 * Reads the schematic a board is checked against (argument `schematic_path`): confined to the workspace, every sheet
 * of its hierarchy read by the native reader (a file that is not a KiCad schematic, a missing sheet, a path outside
 * the workspace is INVALID_ARGUMENTS naming it) before KiCad sees anything.
 */
export async function loadWorkspaceSchematic(
  ws: Workspace,
  given: string,
  signal?: AbortSignal,
): Promise<LoadedSchematic> {
  const d = await loadDesign(ws, given, { kind: 'design' }, { argName: 'schematic_path', signal });
  return { given, files: [given, ...d.files.filter((f) => f !== given)] };
}

/**
 * Stages the schematic beside the staged board as `<stem>.kicad_sch`, the name kicad-cli's schematic parity looks
 * for, with every other sheet at its place relative to the root sheet (sheet paths in KiCad files are relative to
 * the project). A sheet that would land outside the call's folder is refused naming it.
 */
export async function stageSchematic(
  ws: Workspace,
  sch: LoadedSchematic,
  board: string,
  scratch: string,
): Promise<void> {
  const dir = path.dirname(board);
  const root = path.posix.dirname(sch.given);
  await fs.writeFile(board.replace(/\.kicad_pcb$/, '.kicad_sch'), await ws.read(sch.given, 'schematic_path'));
  for (const file of sch.files.slice(1)) {
    const target = path.resolve(dir, path.posix.relative(root, file));
    if (path.relative(scratch, target).startsWith('..'))
      throw new InvalidArgumentsError(
        `schematic_path ${JSON.stringify(sch.given)}: its sheet ${file} lies too far above the root sheet's folder to check`,
        { schematic_path: sch.given, file },
      );
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, await ws.read(file, `sheet file ${file}`));
  }
}
