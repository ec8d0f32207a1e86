import { BoardError, parseBoard, type Board } from './board.ts';
import { connectivity, type Connectivity } from './connectivity.ts';
import { BoardTaskSchema, DesignTaskSchema } from './eda.schemas.ts';
import { loadSchematic, SchematicError } from './schematic.ts';
import type { Schematic } from './schematic.types.ts';

/** A refusal of a task, named so the owner maps it to its tool error. */
export type EdaFailure = { ok: false; file: string; message: string; line?: number } | { ok: false; missing: string };
export type DesignResult = { ok: true; sch: Schematic; conn: Connectivity } | EdaFailure;
export type BoardResult = { ok: true; board: Board } | EdaFailure;

class Missing extends Error {
  readonly file: string;
  constructor(file: string) {
    super(`missing ${file}`);
    this.file = file;
  }
}

/**
 * Task `design`: reads a schematic hierarchy from the files given and computes its connectivity. A sheet file the
 * caller did not send is answered `{missing}` (the caller reads it, confined, and asks again); a file that is not a
 * KiCad 6 schematic is answered with its name and the reader's message.
 */
export async function design(input: unknown): Promise<DesignResult> {
  const task = DesignTaskSchema.parse(input);
  try {
    const sch = await loadSchematic(task.root, async (file) => {
      const text = task.files[file];
      if (text === undefined) throw new Missing(file);
      return text;
    });
    return { ok: true, sch, conn: connectivity(sch) };
  } catch (err) {
    if (err instanceof Missing) return { ok: false, missing: err.file };
    if (err instanceof SchematicError) return { ok: false, file: err.file, message: err.message };
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
