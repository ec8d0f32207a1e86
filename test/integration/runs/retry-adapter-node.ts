// A `solver` adapter node for retry-skills.test.ts, run as its own process: its tools (catalogue ids, so their
// annotations and retry policies are the catalogue's) record each send they receive, and a call whose `deaths` are not
// all taken yet kills this process with SIGKILL mid-call (a node that dies, not one that answers an error).
// Usage: node retry-adapter-node.ts (env: SERVICE_* of the bus, RETRY_DIR a folder shared with the test).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { defineTool } from '../../../actors/adapters/kit/tool.ts';
import { createBroker } from '../../../brokers/broker.ts';
import { loadConfig } from '../../../brokers/config.ts';
import { createRootLogger } from '../../../brokers/logger.ts';

const dir = process.env.RETRY_DIR!;
const Input = z.object({ key: z.string(), deaths: z.number().int().min(0).max(5) });

/** Records the send, then dies if one of the call's `deaths` is still to be taken (mkdir is the atomic claim). */
function handler(tool: string) {
  return async ({ key, deaths }: z.output<typeof Input>) => {
    fs.appendFileSync(path.join(dir, `${key}.sends`), `${tool} ${process.pid}\n`);
    for (let k = 0; k < deaths; k++) {
      try {
        fs.mkdirSync(path.join(dir, `${key}.death-${k}`));
      } catch {
        continue;
      }
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => undefined);
    }
    return { key, answered_by: process.pid };
  };
}

const tools = ['run_fea', 'validate_mesh', 'check_mesh_convergence'].map((name) =>
  defineTool({ name, description: `${name} for the retry test`, input: Input, handler: handler(name) }),
);
const config = loadConfig({ ...process.env, SERVICE_DATA_DIR: 'memory://' });
const log = createRootLogger({ level: 'warn' });
const services = [createAdapterService({ id: 'solver', version: '0.0.1', capability: 'test', tools })];
const handle = createBroker({
  roles: [{ name: 'retry-adapter', doc: 'retry test adapter', services }],
  transporter: config.SERVICE_TRANSPORTER,
  config,
  log,
});
await handle.broker.start();
process.stdout.write(`${JSON.stringify({ msg: 'node_ready', node: handle.broker.nodeID, pid: process.pid })}\n`);
process.once('SIGTERM', () => void handle.stop().finally(() => process.exit(0)));
