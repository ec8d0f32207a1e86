/** The protocol revision this server pins (SPEC Versioning 3); `initialize` always answers it. */
export const PINNED_PROTOCOL_VERSION = '2025-11-25';

/** Revisions a client may ask for without being refused; any other is answered with the pinned one and reported as skew. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** Assumed when a request carries no MCP-Protocol-Version header (notes/mcp-clients.md). */
export const DEFAULT_HEADER_PROTOCOL_VERSION = '2025-03-26';

/** Elicitation over Streamable HTTP needs 2025-06-18 or later (SPEC Versioning 3). */
export function supportsElicitation(revision: string): boolean {
  return revision >= '2025-06-18';
}

export const SERVER_INFO = { name: 'service', title: 'Engineering design service', version: '0.1.0' };

/**
 * Capabilities declared at initialize: resources with subscriptions and list-change notifications (sent on the
 * session's `GET /mcp` stream or stdio), prompts, argument completion, logging.
 */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: true, subscribe: true },
  prompts: { listChanged: false },
  completions: {},
  logging: {},
};

/** Logging levels of MCP `logging/setLevel`, lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type McpLogLevel = (typeof LOG_LEVELS)[number];
