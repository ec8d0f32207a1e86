import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ErrorBodySchema } from '../../contracts/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/pg.ts';
import { natsClusterEnv } from '../support/servers.ts';
import { spawnService, type SpawnedService } from '../support/spawn.ts';

const servers = inject('servers');

/**
 * Cluster mode for real: two processes on the real NATS server and PostgreSQL. The gateway process hosts no
 * projects actor, so every project request crosses the bus to the other process.
 */
describe.runIf(servers.nats && servers.pg)('two-process cluster on NATS', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const started: SpawnedService[] = [];
  const start = (roles: string) => {
    const s = spawnService(['--roles', roles, '--port', '0'], env);
    started.push(s);
    return s;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { ...natsClusterEnv(), SERVICE_DATABASE_URL: db.url };
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.kill('SIGKILL')));
    await db.drop();
  });

  it('serves the gateway route from the other process, answers 503 while it is gone, and heals', async () => {
    let projects = start('projects');
    await projects.waitFor('node_ready');
    const gateway = start('gateway');
    const ready = await gateway.waitFor('mcp_http_ready');
    const url = `http://127.0.0.1:${ready.port}`;
    const create = () =>
      fetch(`${url}/v1/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'over the bus' }),
      });

    await expect.poll(async () => (await create()).status, { timeout: 10_000 }).toBe(201);
    const first = await create();
    const project = (await first.json()) as { id: string };
    expect((await fetch(`${url}/v1/projects/${project.id}`)).status).toBe(200);

    expect(await projects.kill('SIGTERM')).toBe(0);
    const down = await create();
    expect(down.status).toBe(503);
    const body = ErrorBodySchema.parse(await down.json());
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error.message).toContain('projects');
    const health = (await (await fetch(`${url}/health`)).json()) as {
      status: string;
      components: { name: string; status: string }[];
    };
    expect(health.status).toBe('degraded');

    projects = start('projects');
    await projects.waitFor('node_ready');
    await expect.poll(async () => (await create()).status, { timeout: 15_000, interval: 200 }).toBe(201);
    // The project created before the restart is still there: Postgres is the system of record.
    expect((await fetch(`${url}/v1/projects/${project.id}`)).status).toBe(200);
  }, 60_000);
});
