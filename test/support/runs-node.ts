// A node for the runs reliability test and the flow benchmark: starts exactly like the `service` launcher (same
// `startNode`, same role table, same SERVICE_* configuration), except that the `runs` role is built with the
// recording executor (phases only write twin records). Usage: node test/support/runs-node.ts --roles <list> --port 0
import { parseArgs } from 'node:util';
import { createRunsService } from '../../actors/runs/runs.service.ts';
import { loadConfig } from '../../brokers/config.ts';
import { startNode, type StartedNode } from '../../brokers/launcher/node.ts';
import type { RoleOverrides } from '../../brokers/launcher/roles.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { recordingExecutor } from './recording-executor.ts';

/** The test seam of these nodes: `runs` with the recording executor; everything else as in production. */
export const recordingOverrides: RoleOverrides = {
  runs: [(infra) => createRunsService(infra, { executor: recordingExecutor })],
};

/** Starts a node with the recording overrides (in this process); the entry below does the same in a child process. */
export function startRecordingNode(opts: Omit<Parameters<typeof startNode>[0], 'overrides'>): Promise<StartedNode> {
  return startNode({ ...opts, overrides: recordingOverrides });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { roles: { type: 'string', default: 'all' }, port: { type: 'string', default: '0' } },
  });
  const config = loadConfig({ ...process.env, SERVICE_PORT: values.port });
  const log = createRootLogger({ level: config.SERVICE_LOG_LEVEL });
  const node = await startRecordingNode({ roles: values.roles, config, log });
  // The ready line whatever the log level (the launcher's own line is at info).
  const ready = node.gateway.address
    ? { msg: 'mcp_http_ready', port: node.gateway.address.port }
    : { msg: 'node_ready' };
  process.stdout.write(`${JSON.stringify({ ...ready, node: node.broker.nodeID })}\n`);
  const stop = () =>
    void node.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
