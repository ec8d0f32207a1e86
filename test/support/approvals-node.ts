// A node for the approvals CLI test and bench:approvals: starts exactly like the `service` launcher (same `startNode`,
// role table and SERVICE_* configuration) except that `runs` uses the recording executor (phases only write twin
// records, no engines). Usage: node test/support/approvals-node.ts --roles <list> --port 0
import { parseArgs } from 'node:util';
import { createRunsService } from '../../actors/runs/runs.service.ts';
import { loadConfig } from '../../brokers/config.ts';
import { startNode } from '../../brokers/launcher/node.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { recordingExecutor } from './flow-node.ts';

const { values } = parseArgs({
  options: { roles: { type: 'string', default: 'all' }, port: { type: 'string', default: '0' } },
});
const config = loadConfig({ ...process.env, SERVICE_PORT: values.port });
const log = createRootLogger({ level: config.SERVICE_LOG_LEVEL });
const node = await startNode({
  roles: values.roles,
  config,
  log,
  overrides: { runs: [(infra) => createRunsService(infra, { executor: recordingExecutor() })] },
});
// The ready line whatever the log level (the launcher's own line is at info).
process.stdout.write(
  `${JSON.stringify({ msg: 'mcp_http_ready', port: node.gateway.address?.port, node: node.broker.nodeID })}\n`,
);
const stop = () =>
  void node.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
