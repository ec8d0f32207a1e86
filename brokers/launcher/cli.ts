import { parseArgs } from 'node:util';
import { ConfigError } from '../config.ts';

export const TRANSPORTS = ['http', 'sse', 'stdio'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface LaunchOptions {
  roles: string;
  transport: Transport;
  host?: string;
  port?: number;
  profile?: string;
  allowTwinMutations: boolean;
  help: boolean;
}

export const USAGE = `usage: service [options]
       service approvals list|show|decide ...   (the approvals queue of a running gateway; service approvals --help)

  --roles <list>            roles to host, comma separated (default: all)
  --transport <t>           http | sse | stdio (default: http)
  --host <addr>             listen address (default: SERVICE_HOST or 127.0.0.1)
  --port <n>                listen port (default: SERVICE_PORT or 8765)
  --profile <name>          tool profile served by default (default: all tools)
  --allow-twin-mutations    permit writes through twin.query_cypher
  -h, --help                this text
`;

/** Parses the launcher's flags; an unknown flag or a bad value is a ConfigError that says what is accepted. */
export function parseLaunchArgs(argv: string[]): LaunchOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        roles: { type: 'string', default: 'all' },
        transport: { type: 'string', default: 'http' },
        host: { type: 'string' },
        port: { type: 'string' },
        profile: { type: 'string' },
        'allow-twin-mutations': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    throw new ConfigError(`${(err as Error).message}\n\n${USAGE}`);
  }
  if (!TRANSPORTS.includes(values.transport as Transport)) {
    throw new ConfigError(`unknown transport ${values.transport}; accepted: ${TRANSPORTS.join(', ')}`);
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new ConfigError(`--port must be 0..65535, got ${values.port}`);
  }
  return {
    roles: values.roles,
    transport: values.transport as Transport,
    host: values.host,
    port,
    profile: values.profile,
    allowTwinMutations: values['allow-twin-mutations'],
    help: values.help,
  };
}
