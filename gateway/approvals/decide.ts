import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import client from 'prom-client';
import { call } from '../../brokers/actions.ts';
import { ActorError, toActorErrorShape } from '../../brokers/errors.ts';
import { getOrCreate } from '../../brokers/metrics.ts';
import { ApprovalsActions as A, type Decider } from '../../contracts/actions/approvals.actions.ts';
import { SurfaceHeaderSchema, type ApprovalDecision, type ApprovalItem } from '../../contracts/approvals.ts';
import { ErrorCatalogue } from '../../contracts/errors.ts';
import type { GatewayDeps } from '../deps.ts';
import { approvalAuthFor } from './auth.ts';
import { tokenVerifierFor } from '../auth/oauth.ts';
import { refusalError } from './challenge.ts';
import { approvalHeaders, resolveDecider, type DecisionRoute } from './identity.ts';
import { parseIfMatch } from './if-match.ts';

/** Body fields that claim an identity; always ignored (the approver is the authenticated principal) and logged. */
export const IDENTITY_FIELDS = ['reviewer', 'approved_by', 'approvedBy', 'approver', 'approver_verified'];

/** A decision as a route hands it to the queue. */
export interface DecisionRequest {
  id: string;
  decision: ApprovalDecision;
  reason?: string;
  to_phase?: string;
  route: DecisionRoute;
  /** Idempotency-Key of the request; a fresh key per request when absent. */
  idem?: string;
  /** The gate instance the person saw (body `phase`, `attempt`); with `If-Match`, the decision's target. */
  phase?: string;
  attempt?: number;
  /** Approve over a gate's overridable findings (decision 0060). */
  override_reason?: string;
}

const KIND_OF_PREFIX: Record<string, string> = {
  gate: 'gate',
  change: 'design_change',
  design_loop: 'design_loop',
  sketch: 'sketch',
  drawing: 'drawing',
};

function decisionCounter(deps: GatewayDeps) {
  return getOrCreate(
    deps.registry,
    'service_approval_decision_total',
    () =>
      new client.Counter({
        name: 'service_approval_decision_total',
        help: 'Approval decisions by kind, decision, recorded surface and outcome (ok, refused for a 4xx, error)',
        labelNames: ['kind', 'decision', 'surface', 'outcome'] as const,
        registers: [deps.registry],
      }),
  );
}

/**
 * The viewer of a list or an item: the same identity rules as a decision (401 and 422 apply to reads too), except
 * that an OAuth token needs no decide scope to read.
 */
export async function viewerOf(deps: GatewayDeps, req: FastifyRequest): Promise<Decider> {
  const who = resolveDecider(
    approvalHeaders(req.headers),
    await approvalAuthFor(deps.config).resolve(req.headers.authorization),
    'unified',
    'view',
  );
  if ('refusal' in who) throw refusalError(tokenVerifierFor(deps.config)?.config, who.refusal);
  return who.decider;
}

/**
 * The one way every approval route decides (the unified, inline and older per-kind routes): resolve who decides,
 * call `approvals.decide`, count `service_approval_decision_total{kind, decision, surface, outcome}`. Refusals keep
 * the gateway's one error body; the catalogue code fixes the status (README "Approvals API statuses").
 */
export async function decideViaQueue(
  deps: GatewayDeps,
  req: FastifyRequest,
  d: DecisionRequest,
): Promise<ApprovalItem> {
  const counter = decisionCounter(deps);
  const prefix = d.id.split(':')[0];
  const kindGuess = Object.hasOwn(KIND_OF_PREFIX, prefix) ? KIND_OF_PREFIX[prefix] : 'unknown';
  let etags: string[] | undefined;
  try {
    etags = parseIfMatch(req.headers['if-match']);
  } catch (err) {
    counter.inc({
      kind: kindGuess,
      decision: d.decision,
      surface: d.route === 'inline' ? 'chat' : 'unknown',
      outcome: 'refused',
    });
    throw err;
  }
  const named = etags !== undefined || d.phase !== undefined || d.attempt !== undefined;
  let auth;
  try {
    auth = await approvalAuthFor(deps.config).resolve(req.headers.authorization);
  } catch (err) {
    counter.inc({ kind: kindGuess, decision: d.decision, surface: 'unknown', outcome: 'error' });
    throw err;
  }
  const who = resolveDecider(approvalHeaders(req.headers), auth, d.route);
  if ('refusal' in who) {
    const raw = req.headers['x-service-surface'];
    const label =
      d.route === 'inline'
        ? 'chat'
        : raw === undefined
          ? 'unknown'
          : SurfaceHeaderSchema.safeParse(raw).success
            ? d.route === 'legacy'
              ? 'unknown'
              : String(raw)
            : 'invalid';
    counter.inc({ kind: kindGuess, decision: d.decision, surface: label, outcome: 'refused' });
    throw refusalError(tokenVerifierFor(deps.config)?.config, who.refusal);
  }
  const surface = who.decider.surface;
  try {
    const item = await call(deps.caller, A.decide, {
      id: d.id,
      decision: d.decision,
      reason: d.reason ?? '',
      to_phase: d.to_phase ?? '',
      decider: who.decider,
      idem: d.idem ?? `auto:${crypto.randomUUID()}`,
      ...(d.override_reason !== undefined ? { override_reason: d.override_reason } : {}),
      ...(named ? { target: { etags, phase: d.phase, attempt: d.attempt } } : {}),
    });
    counter.inc({ kind: item.kind, decision: d.decision, surface, outcome: 'ok' });
    return item;
  } catch (err) {
    const shape = toActorErrorShape(err);
    const kind = typeof shape.data?.kind === 'string' ? shape.data.kind : kindGuess;
    counter.inc({
      kind,
      decision: d.decision,
      surface,
      outcome: ErrorCatalogue[shape.code].http < 500 ? 'refused' : 'error',
    });
    throw err;
  }
}

/** preValidation hook of decision routes: identity fields in a body are ignored and logged (`approval_body_identity_ignored`). */
export function logIgnoredIdentity(deps: GatewayDeps) {
  return async (req: FastifyRequest) => {
    const body = req.body;
    if (!body || typeof body !== 'object') return;
    const fields = IDENTITY_FIELDS.filter((k) => k in (body as object));
    if (fields.length)
      deps.log.info(
        { route: req.routeOptions.url, id: (req.params as { id?: string }).id, fields },
        'approval_body_identity_ignored',
      );
  };
}
