import fs from 'node:fs/promises';
import { HarnessRoleSchema } from '../../../contracts/harness.ts';
import { parseRoute, type RouteEntry } from './routing.ts';

/**
 * The routes table file (SERVICE_MODEL_ROUTES_PATH): JSON `{"<role>": "<provider>:<model>" | {provider, model}}`,
 * optionally under a top-level `routes` key. Read when it changes (its modification time), so an operator's edit
 * applies without a restart. A file that cannot be read or parsed makes every role's file level a routing
 * configuration error; a key that is no role is a problem of its own.
 */

export interface RoutesFile {
  routes: Record<string, RouteEntry>;
  /** The file as a whole is unusable. */
  error?: string;
  /** Keys that name no role. */
  problems: string[];
}

export function createRoutesFileReader(file: string | undefined) {
  let cached: { mtimeMs: number; value: RoutesFile } | undefined;

  async function parse(path: string): Promise<RoutesFile> {
    let json: unknown;
    try {
      json = JSON.parse(await fs.readFile(path, 'utf8'));
    } catch (err) {
      const why =
        err instanceof SyntaxError ? 'is not JSON' : `cannot be read (${(err as NodeJS.ErrnoException).code})`;
      return { routes: {}, error: `routes file ${path} ${why}`, problems: [] };
    }
    const top = json as Record<string, unknown> | null;
    const table = top && typeof top === 'object' && !Array.isArray(top) && 'routes' in top ? top.routes : top;
    if (!table || typeof table !== 'object' || Array.isArray(table))
      return { routes: {}, error: `routes file ${path} is not an object of role routes`, problems: [] };
    const routes: Record<string, RouteEntry> = {};
    const problems: string[] = [];
    for (const [role, value] of Object.entries(table)) {
      if (!HarnessRoleSchema.safeParse(role).success) problems.push(`routes file ${path}: ${role} is not a role`);
      else routes[role] = parseRoute(value);
    }
    return { routes, problems };
  }

  return {
    async read(): Promise<RoutesFile | undefined> {
      if (!file) return undefined;
      let mtimeMs: number;
      try {
        mtimeMs = (await fs.stat(file)).mtimeMs;
      } catch (err) {
        cached = undefined;
        return {
          routes: {},
          error: `routes file ${file} cannot be read (${(err as NodeJS.ErrnoException).code})`,
          problems: [],
        };
      }
      if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, value: await parse(file) };
      return cached.value;
    },
  };
}
