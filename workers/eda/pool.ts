import path from 'node:path';
import { Piscina } from 'piscina';
import type { Board } from './board.ts';
import type { EdaOp } from './eda.schemas.ts';
import type { BoardResult, DesignResult } from './eda.worker.ts';
import type { EdaLimit } from './limits.ts';
import type { EdaOpResults } from './ops.ts';

// The worker runs as TypeScript under Node 22 (type stripping) and as JavaScript once compiled.
const WORKER = new URL(`./eda.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/** How deep a hierarchy may send the pool back for sheet files its first reading did not find. */
const MAX_ROUNDS = 64;
/** The worker thread's heap (old generation) by default: a hostile file exhausts it, not the node. */
export const EDA_WORKER_MEMORY_MB = 512;
/** Bytes of all the files of one design read from the workspace (each file is capped by its reader too). */
export const MAX_DESIGN_BYTES = 64 * 1024 * 1024;

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

/** A design over one of the work limits (limits.ts): names the limit and its value. */
export class EdaLimitExceeded extends EdaReadError {
  override name = 'EdaLimitExceeded';
  readonly limit: EdaLimit | 'design_bytes';
  readonly max: number;
  constructor(file: string, message: string, limit: EdaLimit | 'design_bytes', max: number) {
    super(file, message);
    this.limit = limit;
    this.max = max;
  }
}

/** The worker ran out of its heap on a file: the thread is gone (piscina replaces it), the node is not. */
export class EdaOutOfMemory extends Error {
  override name = 'EdaOutOfMemory';
  readonly file: string;
  readonly memoryMb: number;
  constructor(file: string, memoryMb: number) {
    super(`${file}: reading it ran the eda worker out of its ${memoryMb} MB heap; the design is too large to read`);
    this.file = file;
    this.memoryMb = memoryMb;
  }
}

export interface Designed<K extends EdaOp['kind']> {
  result: EdaOpResults[K];
  files: string[];
  texts: Map<string, string>;
  /** Time in the worker reading the hierarchy (0 when it kept the design parsed) and its connectivity. */
  parse_ms: number;
  cached: boolean;
}

export interface EdaPool {
  /**
   * Reads a schematic hierarchy in the worker and runs `op` on it there; `read` reads one workspace file (the
   * caller's confinement applies). `signal` aborts the task: the worker thread running it is terminated and replaced.
   */
  design<O extends EdaOp>(
    root: string,
    read: (file: string) => Promise<string>,
    op: O,
    signal?: AbortSignal,
  ): Promise<Designed<O['kind']>>;
  board(file: string, text: string, signal?: AbortSignal): Promise<Board>;
  destroy(): Promise<void>;
}

/** Sheet files read ahead for one design at most; a design naming more is read in rounds (the worker asks). */
const MAX_READ_AHEAD = 1000;

/** Occurrences of `.kicad_sch"` looked at in one file (a real root has tens). */
const MAX_NAME_HITS = 10_000;

/**
 * Quoted `.kicad_sch` names in a schematic's text (its sheet files, read ahead so one task usually suffices): each
 * `.kicad_sch"` back to the quote before it, the first MAX_NAME_HITS of them. A linear scan on the adapter's thread
 * (about 2 ms a MB): no regular expression, whose backtracking a hostile text can make slow or overflow.
 */
export function sheetNames(text: string): Set<string> {
  const out = new Set<string>();
  const END = '.kicad_sch"';
  let hits = 0;
  for (let end = text.indexOf(END); end >= 0 && hits++ < MAX_NAME_HITS; end = text.indexOf(END, end + END.length)) {
    const start = text.lastIndexOf('"', end - 1);
    if (start >= 0 && end - start <= 1024) out.add(text.slice(start + 1, end + END.length - 1));
  }
  return out;
}

const isOom = (err: unknown) => (err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * The eda adapter's pool: reading KiCad files and all the work on them (connectivity, ERC, netlists, BOM, pin maps;
 * a board) off the adapter's event loop, within the work limits (limits.ts) and a heap of `memoryMb` per thread. One
 * thread stays warm a minute after its last task.
 */
export function createEdaPool(opts: { maxThreads?: number; memoryMb?: number } = {}): EdaPool {
  const memoryMb = opts.memoryMb ?? EDA_WORKER_MEMORY_MB;
  let pool: Piscina | undefined;
  const run = async <T>(name: string, task: unknown, file: string, signal?: AbortSignal) => {
    pool ??= new Piscina({
      filename: WORKER,
      minThreads: 0,
      maxThreads: opts.maxThreads ?? 1,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
    try {
      return (await pool.run(task, { name, ...(signal ? { signal } : {}) })) as T;
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      if (isOom(err)) throw new EdaOutOfMemory(file, memoryMb);
      throw err;
    }
  };
  return {
    async design(root, read, op, signal) {
      const texts = new Map<string, string>();
      const dir = path.posix.dirname(root);
      let bytes = 0;
      let aheadLeft = MAX_READ_AHEAD;
      const fetch = async (file: string, required: boolean) => {
        if (texts.has(file)) return;
        signal?.throwIfAborted();
        let text: string;
        try {
          text = await read(file);
        } catch (err) {
          if (required) throw err;
          return; // a quoted name that is no sheet, or a sheet the reader will ask for and report
        }
        bytes += text.length;
        if (bytes > MAX_DESIGN_BYTES)
          throw new EdaLimitExceeded(
            file,
            `${file}: the design's files hold more than ${MAX_DESIGN_BYTES} bytes (limit design_bytes = ${MAX_DESIGN_BYTES})`,
            'design_bytes',
            MAX_DESIGN_BYTES,
          );
        texts.set(file, text);
        for (const name of sheetNames(text)) {
          const ahead = path.posix.join(dir, name);
          if (texts.has(ahead)) continue;
          if (aheadLeft-- <= 0) break;
          await fetch(ahead, false);
        }
      };
      await fetch(root, true);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        signal?.throwIfAborted();
        const r = await run<DesignResult>('design', { root, files: Object.fromEntries(texts), op }, root, signal);
        if (r.ok) {
          const result = r.result as EdaOpResults[(typeof op)['kind']];
          return { result, files: r.files, texts, parse_ms: r.parse_ms, cached: r.cached };
        }
        if ('limit' in r) throw new EdaLimitExceeded(r.file, r.message, r.limit, r.max);
        if ('missing' in r) await fetch(r.missing, true);
        else throw new EdaReadError(r.file, r.message, r.line);
        if (!texts.has(r.missing)) throw new EdaReadError(r.missing, `${r.missing} cannot be read`);
      }
      throw new EdaReadError(root, `${root}: the hierarchy names more than ${MAX_ROUNDS} sheet files it cannot find`);
    },
    async board(file, text, signal) {
      const r = await run<BoardResult>('board', { file, text }, file, signal);
      if (r.ok) return r.board;
      if ('missing' in r) throw new EdaReadError(file, `${file} cannot be read`);
      throw new EdaReadError(r.file, r.message, 'line' in r ? r.line : undefined);
    },
    async destroy() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
