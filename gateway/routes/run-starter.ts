import { ActorError } from '../../brokers/errors.ts';
import { startedByOf, type StartedBy } from '../../contracts/principal.ts';
import { approvalAuthFor } from '../approvals/auth.ts';
import type { GatewayDeps } from '../deps.ts';

/**
 * Who starts a run over `POST /v1/runs` (decision 0113): the principal of the request's bearer token, resolved as the
 * approvals API does (decision 0122). A verified OAuth access token names its subject, client and kind; a token of the
 * approvals token file names its principal (no client, no kind). Without an `Authorization` header, or with
 * authentication off, the run starts as before and records no one (null). A bearer that is presented and refused
 * (unknown, expired, badly signed) is 401 AUTH_REQUIRED: a run is never recorded as anonymous for a bad token.
 */
export async function startedByOfRequest(
  deps: GatewayDeps,
  authorization: string | undefined,
): Promise<StartedBy | null> {
  if (authorization === undefined) return null;
  const auth = await approvalAuthFor(deps.config).resolve(authorization);
  if (!auth.on) return null;
  if ('error' in auth)
    throw new ActorError(
      'AUTH_REQUIRED',
      auth.error === 'invalid_token'
        ? `the bearer token is not accepted: ${auth.message ?? 'invalid access token'}`
        : auth.error === 'missing_key'
          ? 'the Authorization header is not a bearer token: send Authorization: Bearer <token>, or none'
          : 'the bearer token is not one this gateway knows',
      { reason: auth.error, ...(auth.message ? { detail: auth.message } : {}) },
    );
  if (auth.oauth) return startedByOf(auth.oauth, 'http');
  return { subject: auth.principal, client_id: null, kind: null, verified: true, surface: 'http' };
}
