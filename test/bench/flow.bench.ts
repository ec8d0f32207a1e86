// npm run bench:flow — (then the real-engine hardware_v1 line of flow-engines.bench.ts) 200 runs of mech_v1 (six phases) whose handlers only write twin records, every gate approved
// with runs.decide as soon as it opens: runs per second and the time from an approve call to the next phase's
// PhaseStarted. Two setups in one run: embedded (one process, PGlite) and three nodes on NATS with PostgreSQL (the
// bench process is a bus client with no actors; calls go to the nodes in rotation). BENCH_RUNS changes the number.
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../brokers/config.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { createTestDatabase } from '../support/pg.ts';
import { GateWatch, startBusClient, waitForRunsNodes } from '../support/runs-client.ts';
import { startRecordingNode } from '../support/runs-node.ts';
import { probeServers, TEST_SERVERS } from '../support/servers.ts';
import { spawnService, type SpawnedService } from '../support/spawn.ts';
import { driveFlows, printFlowTable, type FlowFigures } from './support/flow-drive.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const ROLES = 'runs,gates,twin,tools,adapter:twin';
const NODE_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../support/runs-node.ts');
const rows: FlowFigures[] = [];

/** One process, no transporter, in-memory PGlite: the actors and the gate watch share a broker. */
async function embedded(): Promise<FlowFigures> {
  const config = loadConfig({ SERVICE_DATA_DIR: 'memory://', SERVICE_PORT: '0', SERVICE_LOG_LEVEL: 'error' });
  const node = await startRecordingNode({
    roles: ROLES,
    config,
    log: createRootLogger({ level: 'error', toStderr: true }),
  });
  const watch = new GateWatch();
  await node.broker.createService(watch.service()() as never);
  await node.broker.waitForServices(['gate-watch']);
  try {
    return await driveFlows('embedded (1 process, PGlite)', { nodes: [], bus: node.broker, watch, runs: RUNS });
  } finally {
    await node.stop();
  }
}

/** Three node processes on NATS and a fresh PostgreSQL database; this process joins as a client. */
async function cluster(): Promise<FlowFigures> {
  const db = await createTestDatabase('bench');
  const ns = `bench-${crypto.randomBytes(3).toString('hex')}`;
  const env = {
    SERVICE_TRANSPORTER: TEST_SERVERS.natsUrl,
    SERVICE_DATABASE_URL: db.url,
    SERVICE_NAMESPACE: ns,
    SERVICE_LOG_LEVEL: 'error',
  };
  const ids = [0, 1, 2].map((i) => `${ns}-n${i}`);
  const procs: SpawnedService[] = ids.map((id) =>
    spawnService(['--roles', ROLES, '--port', '0'], { ...env, SERVICE_NODE_ID: id }, NODE_BIN),
  );
  const watch = new GateWatch();
  const client = await startBusClient({ ...env, SERVICE_NODE_ID: `${ns}-bench` }, watch);
  try {
    await Promise.all(procs.map((p) => p.waitFor('node_ready', 60_000)));
    await waitForRunsNodes(client.broker, ids);
    return await driveFlows('3 nodes on NATS, PostgreSQL', { nodes: ids, bus: client.broker, watch, runs: RUNS });
  } finally {
    await client.stop();
    await Promise.all(procs.map((p) => p.kill('SIGTERM')));
    await db.drop();
  }
}

rows.push(await embedded());
const servers = await probeServers();
if (servers.nats && servers.pg) rows.push(await cluster());
else process.stdout.write(`(no NATS or PostgreSQL on this machine: the three-node figures are skipped)\n`);
process.stdout.write(
  `\nbench:flow  ${os.availableParallelism()} cores, Node ${process.versions.node}, ${RUNS} mech_v1 runs at once, 6 approvals each\n`,
);
printFlowTable(rows);

// The real-engine line (issue 19): one hardware_v1 reference run beside one mech_v1 cantilever run (flow-engines.bench.ts).
await import('./flow-engines.bench.ts');
