import fs from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentsError } from '../tool.ts';
import type { Workspace } from '../workspace.ts';
import { checkStatements, type Expression } from './netlist-policy.ts';

export interface ResolvedInclude {
  path: string;
  funcs: string[];
  expressions: Expression[];
}

/**
 * Resolves an include path (relative to the netlist's folder) to an absolute path inside the workspace, or throws; a
 * resolver that also checks the file hands back its `.func`s and expressions for the deck-wide expression check.
 */
export type IncludeResolver = (file: string) => Promise<string | ResolvedInclude>;

/** How deep includes may nest (a file including a file ... ) before the netlist is refused. */
export const MAX_INCLUDE_DEPTH = 8;
/** Largest included file read. */
const MAX_INCLUDE_BYTES = 32 * 1024 * 1024;

/**
 * An include resolver for a netlist whose relative paths start at `baseDir`. Every included file, and every file it
 * includes in turn (relative to its own folder, for `.lib` too), must lie inside the workspace and pass the statement
 * allow-list. ngspice never reads a workspace file itself: it reads the checked copy written to `copyDir` (the call's
 * scratch folder), whose include cards name the checked copies of the files they include. So the file checked is the
 * file read, and ngspice's own search for a relative path (the top netlist's folder, the current folder, `sourcepath`)
 * never comes into play. A file included twice is copied once; an include cycle and nesting past `MAX_INCLUDE_DEPTH`
 * are refused.
 */
export function workspaceIncludes(ws: Workspace, baseDir: string, copyDir: string): IncludeResolver {
  const done = new Map<string, ResolvedInclude>();
  const check = async (file: string, dir: string, chain: string[]): Promise<ResolvedInclude> => {
    const abs = await ws.resolve(path.resolve(dir, file), 'include');
    const rel = ws.relative(abs);
    const bytes = await ws.read(abs, 'include');
    const key = await fs.realpath(abs);
    if (chain.includes(key))
      throw new InvalidArgumentsError(`included file ${rel} includes itself (an include cycle)`, { include: rel });
    const known = done.get(key);
    if (known) return known;
    if (chain.length >= MAX_INCLUDE_DEPTH)
      throw new InvalidArgumentsError(`included file ${rel} nests deeper than ${MAX_INCLUDE_DEPTH} includes`, {
        include: rel,
      });
    if (bytes.length > MAX_INCLUDE_BYTES)
      throw new InvalidArgumentsError(`included file ${rel} is over ${MAX_INCLUDE_BYTES / 2 ** 20} MB`, {
        include: rel,
      });
    const text = bytes.toString('utf8');
    const checked = checkStatements(text, `included file ${rel}`, false);
    const lines = text.split(/\r?\n|\r/);
    const funcs = [...checked.funcs];
    const expressions = [...checked.expressions];
    for (const ref of checked.includes) {
      const child = await check(ref.file, path.dirname(abs), [...chain, key]);
      funcs.push(...child.funcs);
      expressions.push(...child.expressions);
      lines[ref.index] = `${ref.card} "${child.path}"${ref.rest}`;
    }
    await fs.mkdir(copyDir, { recursive: true });
    const copy = path.join(copyDir, `${done.size + 1}-${path.basename(abs).replace(/[^\w.-]/g, '_')}`);
    await fs.writeFile(copy, lines.join('\n'), { flag: 'wx' });
    const resolved = { path: copy, funcs, expressions };
    done.set(key, resolved);
    return resolved;
  };
  return (file) => check(file, baseDir, []);
}
