import type { ServiceSchema } from 'moleculer';
import type { Infra } from '../../brokers/infra.ts';
import type { EgressPolicy } from './calls/egress.ts';
import type { Redactor } from './redact.ts';

/**
 * What every part of the harness actor shares: the process's infrastructure (config, log, metrics, database, clock).
 * The parts: `calls/` (provider families on their wire formats, the agent loop, tool use), `config/` (credentials,
 * selection, routing, fallback) and `usage/` (the call ledger, prices, usage summaries). Each contributes its actions
 * to the one `harness` service (harness.service.ts) and owns its own tables.
 */
export interface HarnessContext {
  /** The process's infrastructure, its logger redacting (every harness log line passes `redact`). */
  infra: Infra;
  /** The one redactor of provider error texts and log lines (redact.ts). */
  redact: Redactor;
  /** Where provider requests may go (SERVICE_HARNESS_PRIVATE_BASE_URLS; calls/egress.ts). */
  egress: EgressPolicy;
}

/** One part of the harness actor: its actions and its start and stop. */
export interface HarnessPart {
  actions: ServiceSchema['actions'];
  started?(): Promise<void>;
  stopped?(): Promise<void>;
}
