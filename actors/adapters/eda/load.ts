import crypto from 'node:crypto';
import { InvalidArgumentsError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import type { Connectivity } from '../../../workers/eda/connectivity.ts';
import { createEdaPool, EdaReadError, type EdaPool } from '../../../workers/eda/pool.ts';
import type { Schematic } from '../../../workers/eda/schematic.types.ts';

/** Largest single schematic file read (the biggest demo sheet is 0.3 MB). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Designs kept parsed, by root file; an agent reads one design with several tools in a row. */
const CACHE_ENTRIES = 8;

export interface LoadedDesign {
  sch: Schematic;
  conn: Connectivity;
  parse_ms: number;
  /** Served from the parsed-design cache: every file of the hierarchy was read again and hashed the same. */
  cached: boolean;
}

interface CacheEntry {
  hashes: Map<string, string>;
  sch: Schematic;
  conn: Connectivity;
}
const cache = new Map<string, CacheEntry>();

let shared: EdaPool | undefined;
/** The eda adapter's reading pool (workers/eda), made on first use; the adapter destroys it when it stops. */
export function edaPool(): EdaPool {
  shared ??= createEdaPool();
  return shared;
}
export async function closeEdaPool(): Promise<void> {
  await shared?.destroy();
  shared = undefined;
}

const sha = (text: string) => crypto.createHash('sha1').update(text).digest('hex');

/**
 * Loads a schematic hierarchy from the workspace (every sheet file through the workspace's confinement rule) and its
 * connectivity, parsed in the eda pool's worker thread. A design read before is reused only when every one of its files reads back with the same content
 * hash (files are read each time; only parsing is saved). A file that is not a KiCad 6 schematic, a missing sheet
 * file or a path outside the workspace is invalid arguments naming the file (and the line where the reader stopped).
 */
export async function loadDesign(
  ws: Workspace,
  schematicPath: string,
  argName = 'schematic_path',
): Promise<LoadedDesign> {
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
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const key = await ws.resolve(schematicPath, argName);
  const known = cache.get(key);
  if (known && (await unchanged(known, read))) {
    cache.delete(key);
    cache.set(key, known);
    return { sch: known.sch, conn: known.conn, parse_ms: elapsed(), cached: true };
  }
  try {
    const { sch, conn, texts } = await edaPool().design(schematicPath, read);
    const hashes = new Map([...texts].filter(([file]) => sch.files.includes(file)).map(([f, text]) => [f, sha(text)]));
    cache.set(key, { hashes, sch, conn });
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    return { sch, conn, parse_ms: elapsed(), cached: false };
  } catch (err) {
    if (err instanceof EdaReadError)
      throw new InvalidArgumentsError(err.message, {
        [argName]: schematicPath,
        file: err.file,
        ...(err.line ? { line: err.line } : {}),
      });
    throw err;
  }
}

async function unchanged(entry: CacheEntry, read: (file: string) => Promise<string>): Promise<boolean> {
  try {
    for (const [file, hash] of entry.hashes) if (sha(await read(file)) !== hash) return false;
    return true;
  } catch {
    return false; // a file gone or refused: parse again, which reports it
  }
}
