import { describe, expect, it } from 'vitest';
import { ActorError } from '../../../brokers/errors.ts';
import type { Principal } from '../../../contracts/principal.ts';
import { createApprovalAuth, type AuthResult } from '../../../gateway/approvals/auth.ts';
import { resolveDecider } from '../../../gateway/approvals/identity.ts';
import { createTokenVerifier } from '../../../gateway/auth/oauth.ts';

const person = (scopes: string[]): AuthResult => ({
  on: true,
  principal: 'person-b',
  oauth: { subject: 'person-b', client_id: 'dash', scopes, kind: 'person' } satisfies Principal,
});
const client: AuthResult = {
  on: true,
  principal: 'agent-a',
  oauth: { subject: 'agent-a', client_id: 'agent-a', scopes: ['mcp:write', 'approvals:decide'], kind: 'client' },
};
const refusal = (r: ReturnType<typeof resolveDecider>) => ('refusal' in r ? r.refusal : undefined);

// Decision 0122: an OAuth token decides only as a person holding approvals:decide; any verified token reads.
describe('who decides with an OAuth access token', () => {
  it('a person with approvals:decide is the verified approver, by subject', () => {
    expect(resolveDecider({ surface: 'dashboard' }, person(['approvals:decide']), 'unified')).toMatchObject({
      decider: { approver: 'person-b', approver_verified: true, principal: 'person-b', surface: 'dashboard' },
    });
  });

  it('a person without the scope, or any client token, is refused 403 to decide, on every route, but reads', () => {
    for (const route of ['unified', 'legacy', 'inline'] as const) {
      expect(refusal(resolveDecider({}, person(['mcp:read']), route))).toMatchObject({
        code: 'FORBIDDEN',
        details: { reason: 'insufficient_scope', scope: 'approvals:decide', kind: 'person' },
      });
      expect(refusal(resolveDecider({}, client, route))).toMatchObject({
        code: 'FORBIDDEN',
        details: { kind: 'client' },
      });
    }
    expect(resolveDecider({}, person(['mcp:read']), 'unified', 'view')).toHaveProperty('decider.principal', 'person-b');
    expect(resolveDecider({}, client, 'unified', 'view')).toHaveProperty('decider.principal', 'agent-a');
  });

  it('a refused token is 401 invalid_token with the reason in words', () => {
    expect(
      refusal(resolveDecider({}, { on: true, error: 'invalid_token', message: 'the token has expired' }, 'unified')),
    ).toEqual({
      code: 'AUTH_REQUIRED',
      message: 'the bearer token is not accepted: the token has expired',
      details: { reason: 'invalid_token', detail: 'the token has expired' },
    });
  });

  it('an issuer whose keys cannot be had is 503, not a refusal of the token', async () => {
    const verifier = createTokenVerifier(
      {
        issuer: 'https://id.example.test',
        resource: 'https://d.example.test/mcp',
        audience: 'https://d.example.test/mcp',
        scopesClaim: 'scope',
        clockToleranceSeconds: 30,
      },
      { fetch: async () => Promise.reject(new TypeError('connect ECONNREFUSED')) },
    );
    const auth = createApprovalAuth({ verifier });
    const err = await auth.resolve('Bearer aaa.bbb.ccc').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ActorError);
    expect((err as ActorError).type).toBe('SERVICE_UNAVAILABLE');
    expect(await auth.resolve('Bearer not-a-jwt')).toEqual({ on: true, error: 'mismatch' });
    expect(await auth.resolve(undefined)).toEqual({ on: true, error: 'missing_key' });
  });
});
