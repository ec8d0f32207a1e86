import { InvalidArgumentsError, ToolError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import type { EdaOp } from '../../../workers/eda/eda.schemas.ts';
import type { EdaOpResults } from '../../../workers/eda/ops.ts';
import { legacyMessage } from '../../../workers/eda/schematic-format.ts';
import {
  createEdaPool,
  EdaLimitExceeded,
  EdaOutOfMemory,
  EdaReadError,
  EDA_WORKER_MEMORY_MB,
  type EdaPool,
} from '../../../workers/eda/pool.ts';

/** Largest single schematic file read (the biggest demo sheet is 0.3 MB). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

export interface LoadedDesign<K extends EdaOp['kind']> {
  /** The op's answer, computed in the pool's worker. */
  result: EdaOpResults[K];
  /** The schematic files of the hierarchy. */
  files: string[];
  parse_ms: number;
  /** The worker kept the design parsed: every file of the hierarchy was read again and hashed the same. */
  cached: boolean;
}

let shared: EdaPool | undefined;
let memoryMb = EDA_WORKER_MEMORY_MB;
/** The eda adapter's pool (workers/eda), made on first use; the adapter destroys it when it stops. */
export function edaPool(): EdaPool {
  shared ??= createEdaPool({ memoryMb });
  return shared;
}
export async function closeEdaPool(): Promise<void> {
  await shared?.destroy();
  shared = undefined;
}
/** The heap of the pool's worker thread (SERVICE_EDA_WORKER_MEMORY_MB), set once by the adapter. */
export function setEdaWorkerMemory(mb: number): void {
  memoryMb = mb;
}

/**
 * Reads a schematic hierarchy from the workspace (every sheet file through the workspace's confinement rule) and runs
 * `op` on it (connectivity, ERC, netlist, BOM, pin map) in the eda pool's worker thread, within the work limits of
 * workers/eda/limits.ts; `signal` (the call's) aborts the task and replaces the thread. A file that is not a KiCad 6-9
 * schematic (a KiCad 5 `.sch` is named with its format version and how to convert it), a missing sheet file, a path outside the workspace or a design over a limit is invalid arguments naming
 * the file (and the line where the reader stopped, or the limit); a worker out of memory is a tool error saying so.
 */
export async function loadDesign<O extends EdaOp>(
  ws: Workspace,
  schematicPath: string,
  op: O,
  opts: { argName?: string; signal?: AbortSignal } = {},
): Promise<LoadedDesign<O['kind']>> {
  const argName = opts.argName ?? 'schematic_path';
  if (schematicPath.endsWith('.sch')) {
    // KiCad 5's legacy format: named with its version and how to convert it (decision 0136).
    const head = (await ws.read(schematicPath, argName)).subarray(0, 200).toString('utf8');
    const legacy = /^\s*EESchema Schematic File Version (\d+)/.exec(head);
    if (legacy)
      throw new InvalidArgumentsError(`${schematicPath}: ${legacyMessage(legacy[1])}`, {
        [argName]: schematicPath,
        format: `EESchema Schematic File Version ${legacy[1]}`,
      });
  }
  if (!schematicPath.endsWith('.kicad_sch'))
    throw new InvalidArgumentsError(`${argName} ${JSON.stringify(schematicPath)} is not a .kicad_sch file`, {
      [argName]: schematicPath,
    });
  const started = performance.now();
  const read = async (file: string) => {
    const buf = await ws.read(file, file === schematicPath ? argName : `sheet file ${file}`);
    if (buf.byteLength > MAX_FILE_BYTES)
      throw new InvalidArgumentsError(`${file} is ${buf.byteLength} bytes, over ${MAX_FILE_BYTES}`, { file });
    return buf.toString('utf8');
  };
  try {
    const d = await edaPool().design(schematicPath, read, op, opts.signal);
    const parse_ms = Math.round((performance.now() - started) * 10) / 10;
    return { result: d.result as EdaOpResults[O['kind']], files: d.files, parse_ms, cached: d.cached };
  } catch (err) {
    if (err instanceof EdaLimitExceeded)
      throw new InvalidArgumentsError(err.message, {
        validation_errors: [{ path: argName, message: err.message }],
        [argName]: schematicPath,
        file: err.file,
        limit: err.limit,
        max: err.max,
      });
    if (err instanceof EdaReadError)
      throw new InvalidArgumentsError(err.message, {
        [argName]: schematicPath,
        file: err.file,
        ...(err.line ? { line: err.line } : {}),
      });
    if (err instanceof EdaOutOfMemory)
      throw new ToolError(err.message, { [argName]: schematicPath, memory_mb: err.memoryMb });
    throw err;
  }
}
