import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../brokers/config.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { startNode, type StartedNode } from '../../brokers/launcher/node.ts';
import { useNode } from './tools.ts';

export interface TestNode {
  node: StartedNode;
  /** Base URL of the gateway when this node hosts it. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real node in this process: the same path as the launcher, on a free port, with an in-memory PGlite
 * database unless `env` names a PostgreSQL URL.
 */
export async function startTestNode(opts: { roles?: string; env?: Record<string, string> } = {}): Promise<TestNode> {
  const config = loadConfig({
    SERVICE_PORT: '0',
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_LOG_LEVEL: 'warn',
    ...opts.env,
  });
  const log = createRootLogger({ level: config.SERVICE_LOG_LEVEL, toStderr: true });
  const node = await startNode({ roles: opts.roles ?? 'all', config, log });
  const addr = node.gateway.address;
  return {
    node,
    url: addr ? `http://127.0.0.1:${addr.port}` : '',
    stop: () => node.stop(),
  };
}

/**
 * Starts a test node before the tests of the file (or of the enclosing describe) and stops it after them: on a
 * database of its own with `realDb` (see `realDbEnv`), and with `path` as the process PATH while it runs (a PATH
 * without an engine's binary; such a file runs in a process of its own). Read `node` and `url` inside tests.
 */
export function useTestNode(
  opts: {
    roles?: string;
    env?: Record<string, string>;
    realDb?: boolean;
    path?: string;
    /** A workspace of its own: a temporary folder with this prefix as SERVICE_WORKSPACE, removed after the file. */
    workspace?: string;
    startTimeoutMs?: number;
  } = {},
): TestNode {
  return useNode(
    async (env) => {
      const savedPath = process.env.PATH;
      if (opts.path !== undefined) process.env.PATH = opts.path;
      const workspace = opts.workspace ? await fs.mkdtemp(path.join(os.tmpdir(), opts.workspace)) : undefined;
      const t = await startTestNode({
        roles: opts.roles,
        env: { ...env, ...opts.env, ...(workspace ? { SERVICE_WORKSPACE: workspace } : {}) },
      });
      if (opts.path === undefined && !workspace) return t;
      return {
        ...t,
        async stop() {
          await t.stop();
          if (opts.path !== undefined) process.env.PATH = savedPath;
          if (workspace) await fs.rm(workspace, { recursive: true, force: true });
        },
      };
    },
    { ownDb: opts.realDb === true, startTimeoutMs: opts.startTimeoutMs },
  );
}
