import crypto from 'node:crypto';
import { InvalidArgumentsError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { connectivity, type Connectivity } from './connectivity.ts';
import { loadSchematic, SchematicError } from './schematic.ts';
import type { Schematic } from './schematic.types.ts';

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

const sha = (text: string) => crypto.createHash('sha1').update(text).digest('hex');

/**
 * Loads a schematic hierarchy from the workspace (every sheet file through the workspace's confinement rule) and its
 * connectivity. A design read before is reused only when every one of its files reads back with the same content
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
    const hashes = new Map<string, string>();
    const sch = await loadSchematic(schematicPath, async (file) => {
      const text = await read(file);
      hashes.set(file, sha(text));
      return text;
    });
    const conn = connectivity(sch);
    cache.set(key, { hashes, sch, conn });
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    return { sch, conn, parse_ms: elapsed(), cached: false };
  } catch (err) {
    if (err instanceof SchematicError)
      throw new InvalidArgumentsError(err.message, { [argName]: schematicPath, file: err.file });
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

/** The design's symbols that are parts (not power symbols or flags), one entry per reference (units merged). */
export function parts(sch: Schematic) {
  const byRef = new Map<
    string,
    { symbol: Schematic['sheets'][number]['symbols'][number]; sheet: string; units: number[] }
  >();
  for (const sheet of sch.sheets)
    for (const s of sheet.symbols) {
      if (s.power || s.reference.startsWith('#')) continue;
      const known = byRef.get(s.reference);
      if (known) known.units.push(s.unit);
      else byRef.set(s.reference, { symbol: s, sheet: sheet.instance.names, units: [s.unit] });
    }
  return byRef;
}
