import type { TestProject } from 'vitest/node';
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
export default async function setup(project: TestProject): Promise<void> {
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
}
