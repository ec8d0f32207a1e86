import type { Decider } from '../../contracts/actions/approvals.actions.ts';
import { SurfaceHeaderSchema } from '../../contracts/approvals.ts';
import { principalHas } from '../../contracts/principal.ts';
import type { AuthResult } from './auth.ts';

/** Which route a decision came through: the unified API, an older per-kind route (surface `unknown`), or inline (chat). */
export type DecisionRoute = 'unified' | 'legacy' | 'inline';

/** Why the identity is resolved: to decide (an OAuth token needs `approvals:decide`, a person's) or to read. */
export type IdentityPurpose = 'decide' | 'view';

/** The scope an OAuth access token needs to decide an approval (issue 29 point 2); never honoured on a client's token. */
export const DECIDE_SCOPE = 'approvals:decide';

/** The approval headers of a request (SPEC "Authentication / Gateway" rule 3). */
export interface ApprovalHeaders {
  surface?: string;
  on_behalf_of?: string;
  agent?: string;
}

/** A refused identity: the catalogue code fixes the status (401 no or wrong token, 422 bad headers, 403 not allowed). */
export type IdentityRefusal = {
  code: 'AUTH_REQUIRED' | 'VALIDATION_FAILED' | 'FORBIDDEN';
  message: string;
  details: Record<string, unknown>;
};

/** The approver of dashboard and CLI decisions with authentication off (SPEC Gateway rule 2), unverified. */
export const LOCAL_DASHBOARD = 'local:dashboard';
/** The approver of inline (chat) decisions whose request is not authenticated (SPEC Gateway rules 2 and 6), unverified. */
export const LOCAL_ELICITATION = 'local:elicitation';

const given = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

/**
 * Who decides (pure; SPEC "Authentication / Gateway" rules 2-6). The approver is always the authenticated principal
 * (verified) when authentication is on, never a field of the body. Surface: the header (absent = `unknown`, any other
 * value 422); on-behalf-of and agent only with surface agent (422 otherwise); an agent needs on-behalf-of (422), which
 * must equal the principal when authentication is on (403); with it off the on-behalf-of user is the approver,
 * unverified. An older per-kind route records surface `unknown`. An inline decision needs a token like every other
 * route when authentication is on; with it off it is `local:elicitation`, unverified; it is recorded with surface chat.
 * A verified OAuth access token (decision 0122) decides only as a person holding `approvals:decide` (403 otherwise: a
 * client-credentials token never does); any verified token may read.
 */
export function resolveDecider(
  h: ApprovalHeaders,
  auth: AuthResult,
  route: DecisionRoute,
  purpose: IdentityPurpose = 'decide',
): { decider: Decider } | { refusal: IdentityRefusal } {
  const refuse = (code: IdentityRefusal['code'], message: string, details: Record<string, unknown> = {}) => ({
    refusal: { code, message, details },
  });
  // Every route alike, inline too (ISSUE 27 #3): with authentication on, no token is 401, never an unverified decision.
  if (auth.on && 'error' in auth) {
    return refuse(
      'AUTH_REQUIRED',
      auth.error === 'missing_key'
        ? 'this gateway requires Authorization: Bearer <token> on approval requests'
        : auth.error === 'invalid_token'
          ? `the bearer token is not accepted: ${auth.message ?? 'invalid access token'}`
          : 'the bearer token is not one this gateway knows',
      { reason: auth.error, ...(auth.message ? { detail: auth.message } : {}) },
    );
  }
  if (purpose === 'decide' && auth.on && 'oauth' in auth && auth.oauth && !principalHas(auth.oauth, DECIDE_SCOPE)) {
    const p = auth.oauth;
    return refuse(
      'FORBIDDEN',
      p.kind === 'client'
        ? `a client's own token (client credentials, ${p.subject}) never decides approvals: a person signs in to decide`
        : `the token of ${p.subject} lacks the scope ${DECIDE_SCOPE}, which deciding an approval needs`,
      { reason: 'insufficient_scope', scope: DECIDE_SCOPE, principal: p.subject, kind: p.kind },
    );
  }
  const principal = auth.on && 'principal' in auth ? auth.principal : undefined;
  // The OAuth client the token was issued to (issue 29 point 3): recorded only when an OAuth token decided.
  const oauth = auth.on && 'oauth' in auth ? auth.oauth : undefined;
  const who = { principal: principal ?? null, ...(oauth ? { client_id: oauth.client_id } : {}) };
  if (route === 'inline') {
    return {
      decider: {
        approver: principal ?? LOCAL_ELICITATION,
        approver_verified: principal !== undefined,
        surface: 'chat',
        on_behalf_of: null,
        agent: null,
        channel: 'chat',
        ...who,
      },
    };
  }
  const raw = given(h.surface);
  const surface =
    raw === undefined
      ? 'unknown'
      : SurfaceHeaderSchema.safeParse(raw).success
        ? (raw as 'dashboard' | 'cli' | 'agent')
        : undefined;
  if (!surface)
    return refuse(
      'VALIDATION_FAILED',
      `X-Service-Surface must be dashboard, cli or agent (got ${JSON.stringify(raw)})`,
      { issues: [{ path: 'headers.x-service-surface', message: 'expected dashboard, cli or agent' }] },
    );
  const obo = given(h.on_behalf_of);
  const agent = given(h.agent);
  if (surface !== 'agent' && (obo || agent)) {
    const which = obo ? 'x-service-on-behalf-of' : 'x-service-agent';
    return refuse('VALIDATION_FAILED', `${which} is valid only with X-Service-Surface: agent`, {
      issues: [{ path: `headers.${which}`, message: 'only with surface agent' }],
    });
  }
  const recorded = route === 'legacy' ? 'unknown' : surface;
  // Where it came from (decision 0061): the dashboard or CLI header (on an older route too), else the HTTP API.
  const channel = surface === 'dashboard' || surface === 'cli' ? surface : 'api';
  if (surface !== 'agent')
    return {
      decider: {
        approver: principal ?? LOCAL_DASHBOARD,
        approver_verified: principal !== undefined,
        surface: recorded,
        on_behalf_of: null,
        agent: null,
        channel,
        ...who,
      },
    };
  if (!obo)
    return refuse(
      'VALIDATION_FAILED',
      'an agent decision needs X-Service-On-Behalf-Of (the person the agent acts for)',
      { issues: [{ path: 'headers.x-service-on-behalf-of', message: 'required with surface agent' }] },
    );
  if (principal !== undefined && obo !== principal)
    return refuse('FORBIDDEN', `X-Service-On-Behalf-Of (${obo}) is not the authenticated principal (${principal})`, {
      on_behalf_of: obo,
      principal,
    });
  return {
    decider: {
      approver: principal ?? obo,
      approver_verified: principal !== undefined,
      surface: recorded,
      on_behalf_of: obo,
      agent: agent ?? null,
      channel,
      ...who,
    },
  };
}

/** The approval headers out of a request's (lower-cased) headers. */
export function approvalHeaders(headers: Record<string, string | string[] | undefined>): ApprovalHeaders {
  const one = (k: string) => {
    const v = headers[k];
    return Array.isArray(v) ? v[0] : v;
  };
  return {
    surface: one('x-service-surface'),
    on_behalf_of: one('x-service-on-behalf-of'),
    agent: one('x-service-agent'),
  };
}
