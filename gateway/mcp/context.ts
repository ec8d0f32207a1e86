import type { Caller as BusCaller } from '../../brokers/actions.ts';
import type { Queryable } from '../../brokers/db/index.ts';
import type { Logger } from '../../brokers/logger.ts';
import type { HealthRollup } from '../../contracts/health.ts';
import type { Principal } from '../../contracts/principal.ts';
import type { ElicitationPolicy } from './elicitation-policy.ts';
import type { InflightCalls } from './inflight.ts';
import type { Outbound, PendingRequests } from './outbound.ts';
import type { ResourceUpdates } from './resource-updates.ts';
import type { McpSession, SessionStore } from './session-store.ts';

/** What the MCP method handlers need from the gateway node. */
export interface McpDeps {
  bus: BusCaller;
  sessions: SessionStore;
  inflight: InflightCalls;
  pending: PendingRequests;
  log: Logger;
  /** This node's id: adapters send progress here. */
  nodeID: string;
  /** The launcher's profile (`--profile`), used when a request names none. */
  defaultProfile?: string;
  health(client: HealthRollup['client']): Promise<HealthRollup>;
  /** Tells every node to stop a call (best effort). */
  cancelCall(callId: string, reason: string): void;
  /** When a person's decision (held call, gate) may be asked in a client (SERVICE_ELICITATION_APPROVALS); unset = never. */
  elicitation?: ElicitationPolicy;
  /** Longest hold window (seconds): a held call's bus deadline covers it on top of the tool's own timeout. */
  holdMaxSeconds?: number;
  /** Tells the holds that a call's stream closed before its answer (best effort). */
  callClosed?(callId: string): void;
  /** The node's database, for stored file bytes read straight from the blob store (work-product file resources). */
  db?: () => Promise<Queryable>;
  /** Resource change notifications to the sessions this node reaches (subscriptions, list changes). */
  updates: ResourceUpdates;
  /** MCP_CONFORMANCE_FIXTURES=1: also serve the conformance suite's fixture prompts and resources. */
  conformanceFixtures?: boolean;
}

/** Per-message context a transport hands to the server (json-rpc-2.0 "server params"). */
export interface McpRequestContext {
  session?: McpSession;
  /** Session id, `stdio`, or a per-request key for session-less legacy calls. */
  sessionKey: string;
  transport: 'http' | 'sse' | 'stdio';
  profile?: string;
  out: Outbound;
  /** Set by the server from the request envelope. */
  requestId?: string | number;
  /** Filled by `initialize`: the transport returns its id as `Mcp-Session-Id`. */
  newSession?: McpSession;
  /** The verified principal of the request's OAuth access token (unset: shared key, open mode or stdio). */
  principal?: Principal;
}
