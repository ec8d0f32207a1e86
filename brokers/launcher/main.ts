import { ConfigError, loadConfig } from '../config.ts';
import { createRootLogger } from '../logger.ts';
import { parseLaunchArgs, USAGE } from './cli.ts';
import type * as NodeModule from './node.ts';

/**
 * The `service` command. Flags override their SERVICE_* variables. Exits 2 on a bad flag, role or variable
 * (saying what is accepted), drains on SIGTERM/SIGINT.
 */
export async function main(argv: string[]): Promise<void> {
  // `service approvals ...` is a client of a running gateway: it never starts a broker (brokers/launcher/approvals.cli.ts).
  if (argv[0] === 'approvals') {
    const { runApprovalsCli } = await import('./approvals.cli.ts');
    process.exitCode = await runApprovalsCli(argv.slice(1), process.env, {
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
    });
    return;
  }
  let opts;
  let config;
  try {
    opts = parseLaunchArgs(argv);
    if (opts.help) {
      process.stdout.write(USAGE);
      return;
    }
    const env = { ...process.env };
    if (opts.host !== undefined) env.SERVICE_HOST = opts.host;
    if (opts.port !== undefined) env.SERVICE_PORT = String(opts.port);
    if (opts.profile !== undefined) env.SERVICE_PROFILE = opts.profile;
    if (opts.allowTwinMutations) env.SERVICE_ALLOW_TWIN_MUTATIONS = 'true';
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`service: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }

  const log = createRootLogger({ level: config.SERVICE_LOG_LEVEL, toStderr: opts.transport === 'stdio' });
  let node: Awaited<ReturnType<typeof NodeModule.startNode>> | undefined;
  try {
    // Loaded here, not at the top: the approvals command and --help need none of the actors.
    const { startNode } = await import('./node.ts');
    node = await startNode({
      roles: opts.roles,
      config,
      log,
      transport: opts.transport,
      onStdioClosed: () => shutdown('stdin closed'),
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`service: ${err.message}\n`);
      process.exit(2);
    }
    log.fatal({ err }, 'start failed');
    log.flush();
    process.exit(1);
  }
  if (opts.transport === 'stdio') {
    log.info({ roles: opts.roles, auth_enforced: false, transport: 'stdio' }, 'mcp_stdio_ready');
  } else if (node.gateway.address) {
    log.info(
      {
        host: node.gateway.address.host,
        port: node.gateway.address.port,
        auth_enforced: Boolean(config.SERVICE_MCP_API_KEY || config.SERVICE_OAUTH_ISSUER),
        transport: opts.transport,
        roles: opts.roles,
      },
      'mcp_http_ready',
    );
  } else {
    log.info({ roles: opts.roles, node: node.broker.nodeID }, 'node_ready');
  }

  function shutdown(signal: string) {
    log.info({ signal }, 'draining');
    if (!node) process.exit(0);
    void node
      .stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'drain failed');
        process.exit(1);
      });
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
