import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { BoardError, parseBoard, type Board } from './board.ts';
import { BoardTaskSchema, DesignTaskSchema, type DesignTask } from './eda.schemas.ts';
import { EdaBudget, EdaLimitError, type EdaLimit } from './limits.ts';
import { runOp, type EdaOpResults, type ParsedDesign } from './ops.ts';
import { loadSchematic, SchematicError } from './schematic.ts';

/** A refusal of a task, named so the owner maps it to its tool error. */
export type EdaFailure =
  | { ok: false; file: string; message: string; line?: number }
  | { ok: false; missing: string }
  | { ok: false; limit: EdaLimit; max: number; file: string; message: string };
export type DesignResult<R = EdaOpResults[keyof EdaOpResults]> =
  { ok: true; result: R; files: string[]; parse_ms: number; cached: boolean } | EdaFailure;
export type BoardResult = { ok: true; board: Board } | EdaFailure;

/**
 * This thread's CPU yields to the adapter's event loop: it runs at a lower priority (nice 10; on Linux a thread is a
 * task of its own, named by /proc/thread-self), so a design at the limits costs the node's answers nothing.
 */
try {
  os.setPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // not Linux, or not allowed: the thread runs at the process's priority
}

class Missing extends Error {
  readonly file: string;
  constructor(file: string) {
    super(`missing ${file}`);
    this.file = file;
  }
}

/** Designs this thread parsed lately, by root and the hash of every file sent; small ones only (EdaBudget.cacheable). */
const CACHE_ENTRIES = 4;
const cache = new Map<string, ParsedDesign>();

function cacheKey(task: DesignTask): string {
  const h = crypto.createHash('sha1').update(task.root);
  for (const name of Object.keys(task.files).sort()) h.update(`\0${name}\0`).update(task.files[name]!);
  return h.digest('hex');
}

/**
 * Task `design`: reads a schematic hierarchy from the files given, within the work limits (limits.ts), and runs the
 * task's op on it here (connectivity, ERC, netlist, BOM, pin map), so only the op's answer goes back. A sheet file
 * the caller did not send is answered `{missing}` (the caller reads it, confined, and asks again); a file that is not
 * a KiCad 6 schematic is answered with its name and the reader's message; a design over a limit names the limit.
 */
export async function design(input: unknown): Promise<DesignResult> {
  const task = DesignTaskSchema.parse(input);
  const started = performance.now();
  const key = cacheKey(task);
  let parsed = cache.get(key);
  const cached = parsed !== undefined;
  try {
    if (!parsed) {
      const budget = new EdaBudget();
      const sch = await loadSchematic(
        task.root,
        async (file) => {
          const text = task.files[file];
          if (text === undefined) throw new Missing(file);
          return text;
        },
        budget,
      );
      parsed = { sch };
      if (budget.cacheable) cache.set(key, parsed);
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    } else {
      cache.delete(key);
      cache.set(key, parsed);
    }
    const parse_ms = Math.round((performance.now() - started) * 10) / 10;
    return { ok: true, result: runOp(parsed, task.op), files: parsed.sch.files, parse_ms, cached };
  } catch (err) {
    if (err instanceof Missing) return { ok: false, missing: err.file };
    if (err instanceof SchematicError) return { ok: false, file: err.file, message: err.message };
    if (err instanceof EdaLimitError)
      return { ok: false, limit: err.limit, max: err.max, file: err.file, message: err.message };
    throw err;
  }
}

/** Task `board`: the native reading of a `.kicad_pcb`, or why it is not a KiCad board (file and line). */
export function board(input: unknown): BoardResult {
  const task = BoardTaskSchema.parse(input);
  try {
    return { ok: true, board: parseBoard(task.text, task.file) };
  } catch (err) {
    if (err instanceof BoardError)
      return { ok: false, file: task.file, message: err.message, ...(err.line ? { line: err.line } : {}) };
    throw err;
  }
}
