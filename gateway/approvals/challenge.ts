import { ActorError } from '../../brokers/errors.ts';
import { challengeOf } from '../auth/resource-server.ts';
import type { OAuthConfig } from '../auth/oauth.ts';
import { DECIDE_SCOPE, type IdentityRefusal } from './identity.ts';

/**
 * A refused approval request with the `WWW-Authenticate` challenge it answers (RFC 6750 section 3, RFC 9728 section
 * 5.1): the gateway's error handler sends `challenge` as that header beside the usual error body. Local to the gateway
 * (never crosses the bus).
 */
export class ChallengedRefusal extends ActorError {
  readonly challenge: string;

  constructor(refusal: IdentityRefusal, challenge: string) {
    super(refusal.code, refusal.message, refusal.details);
    this.challenge = challenge;
  }
}

/**
 * The error of a refused identity on the approval routes (issue 29 point 1, the same challenge as the tool server's):
 * with an OAuth issuer configured, a 401 names the protected resource metadata, with `error="invalid_token"` when a
 * token was sent and refused (a JWT the verifier refused, or a token nobody knows); a 403 for want of the decide scope
 * says `error="insufficient_scope", scope="approvals:decide"`. Without an issuer, or for any other refusal (422, an
 * on-behalf-of mismatch), the plain error.
 */
export function refusalError(oauth: OAuthConfig | undefined, refusal: IdentityRefusal): ActorError {
  const reason = refusal.details.reason;
  if (!oauth) return new ActorError(refusal.code, refusal.message, refusal.details);
  if (refusal.code === 'AUTH_REQUIRED') {
    if (reason === 'missing_key') return new ChallengedRefusal(refusal, challengeOf(oauth));
    const description = typeof refusal.details.detail === 'string' ? refusal.details.detail : undefined;
    return new ChallengedRefusal(refusal, challengeOf(oauth, { error: 'invalid_token', description }));
  }
  if (refusal.code === 'FORBIDDEN' && reason === 'insufficient_scope')
    return new ChallengedRefusal(refusal, challengeOf(oauth, { error: 'insufficient_scope', scope: DECIDE_SCOPE }));
  return new ActorError(refusal.code, refusal.message, refusal.details);
}
