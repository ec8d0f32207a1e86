import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../brokers/db/migrate.ts';
import { createPgliteDb } from '../brokers/db/pglite.ts';
import { probeServers, type ServerAvailability } from './support/servers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    servers: ServerAvailability;
  }
}

/**
 * Probes the real PostgreSQL, Redis and NATS servers once per run. With CI=true a missing server fails the whole run
 * (never a silent skip); locally the suites that need it are skipped with a loud warning.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers = await probeServers();
  const missing = Object.entries(servers)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  if (missing.length && process.env.CI === 'true') {
    throw new Error(
      `CI=true and these servers are not reachable: ${missing.join(', ')} (see README, "Running the tests")`,
    );
  }
  if (missing.length) {
    process.stderr.write(`\n!!! servers not reachable, their suites are skipped: ${missing.join(', ')}\n\n`);
  }
  project.provide('servers', servers);
  const template = await pgliteTemplate();
  return () => fs.rm(template, { force: true });
}

/**
 * One migrated in-memory database for the whole run, dumped to a file the test processes start their memory://
 * databases from (TEST_PGLITE_TEMPLATE, brokers/db/open.ts), instead of an initdb and every migration per test node.
 */
async function pgliteTemplate(): Promise<string> {
  const db = await createPgliteDb('memory://');
  try {
    await migrate(db);
    const dump = await db.pglite.dumpDataDir('gzip');
    const file = path.join(os.tmpdir(), `pglite-template-${process.pid}.tar.gz`);
    await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
    process.env.TEST_PGLITE_TEMPLATE = file;
    return file;
  } finally {
    await db.close();
  }
}
