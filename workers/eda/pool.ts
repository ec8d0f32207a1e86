import path from 'node:path';
import { Piscina } from 'piscina';
import type { Board } from './board.ts';
import type { Connectivity } from './connectivity.ts';
import type { BoardResult, DesignResult } from './eda.worker.ts';
import type { Schematic } from './schematic.types.ts';

// The worker runs as TypeScript under Node 22 (type stripping) and as JavaScript once compiled.
const WORKER = new URL(`./eda.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/** How deep a hierarchy may send the pool back for sheet files its first reading did not find. */
const MAX_ROUNDS = 64;

/** A file the reader refused (not a KiCad file, truncated...), with its name and line. */
export class EdaReadError extends Error {
  override name = 'EdaReadError';
  readonly file: string;
  readonly line: number | undefined;
  constructor(file: string, message: string, line?: number) {
    super(message);
    this.file = file;
    this.line = line;
  }
}

export interface EdaPool {
  /** A schematic hierarchy and its connectivity; `read` reads one workspace file (the caller's confinement applies). */
  design(
    root: string,
    read: (file: string) => Promise<string>,
  ): Promise<{ sch: Schematic; conn: Connectivity; texts: Map<string, string> }>;
  board(file: string, text: string): Promise<Board>;
  destroy(): Promise<void>;
}

/** Quoted `.kicad_sch` names in a schematic's text: its sheet files, read ahead so one task usually suffices. */
const SHEET_NAME = /"((?:[^"\\]|\\.)*\.kicad_sch)"/g;

/**
 * The eda adapter's pool: reading KiCad files (a schematic hierarchy with its connectivity, a board) off the adapter's
 * event loop; the largest demo board takes ~0.3 s to read. One thread stays warm a minute after its last task.
 */
export function createEdaPool(opts: { maxThreads?: number } = {}): EdaPool {
  let pool: Piscina | undefined;
  const run = <T>(name: string, task: unknown) => {
    pool ??= new Piscina({ filename: WORKER, minThreads: 0, maxThreads: opts.maxThreads ?? 1, idleTimeout: 60_000 });
    return pool.run(task, { name }) as Promise<T>;
  };
  return {
    async design(root, read) {
      const texts = new Map<string, string>();
      const dir = path.posix.dirname(root);
      const fetch = async (file: string, required: boolean) => {
        if (texts.has(file)) return;
        let text: string;
        try {
          text = await read(file);
        } catch (err) {
          if (required) throw err;
          return; // a quoted name that is no sheet, or a sheet the reader will ask for and report
        }
        texts.set(file, text);
        for (const m of text.matchAll(SHEET_NAME)) await fetch(path.posix.join(dir, m[1]!), false);
      };
      await fetch(root, true);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const r = await run<DesignResult>('design', { root, files: Object.fromEntries(texts) });
        if (r.ok) return { sch: r.sch, conn: r.conn, texts };
        if ('missing' in r) await fetch(r.missing, true);
        else throw new EdaReadError(r.file, r.message, r.line);
        if (!texts.has(r.missing)) throw new EdaReadError(r.missing, `${r.missing} cannot be read`);
      }
      throw new EdaReadError(root, `${root}: the hierarchy names more than ${MAX_ROUNDS} sheet files it cannot find`);
    },
    async board(file, text) {
      const r = await run<BoardResult>('board', { file, text });
      if (r.ok) return r.board;
      if ('missing' in r) throw new EdaReadError(file, `${file} cannot be read`);
      throw new EdaReadError(r.file, r.message, r.line);
    },
    async destroy() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
