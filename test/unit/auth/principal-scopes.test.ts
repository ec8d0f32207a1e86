import { describe, expect, it } from 'vitest';
import { principalHas, type Principal } from '../../../contracts/principal.ts';
import { missingScope, requiredScopes, toolScope } from '../../../gateway/auth/scopes.ts';
import { challengeOf } from '../../../gateway/auth/resource-server.ts';
import { decisionElicitation, elicitationPolicyOf } from '../../../gateway/mcp/elicitation-policy.ts';

const person = (scopes: string[]): Principal => ({ subject: 'bob', client_id: 'app', scopes, kind: 'person' });
const client = (scopes: string[]): Principal => ({ subject: 'svc', client_id: 'svc', scopes, kind: 'client' });
const call = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } });

describe('scopes (decision 0111)', () => {
  it('a read-only tool needs mcp:read, a writing or unknown one mcp:write, by id or bare name', () => {
    expect(toolScope('project.list')).toBe('mcp:read');
    expect(toolScope('project.create')).toBe('mcp:write');
    expect(toolScope('no.such_tool')).toBe('mcp:write');
    expect(toolScope('')).toBe('mcp:write');
    expect(toolScope('twin.query_cypher')).toBe('mcp:read');
    expect(toolScope('twin.query_cypher', true)).toBe('mcp:write');
  });

  it('resources and prompts need mcp:read; upkeep and listings any MCP scope; hostile messages need a scope too', () => {
    expect(requiredScopes({ method: 'resources/read' })).toEqual(['mcp:read']);
    expect(requiredScopes({ method: 'prompts/get' })).toEqual(['mcp:read']);
    expect(requiredScopes({ method: 'initialize' })).toEqual(['mcp:read', 'mcp:write']);
    expect(requiredScopes(null)).toEqual(['mcp:read', 'mcp:write']);
    expect(requiredScopes({ method: 'tools/call', params: { name: 42 } })).toEqual(['mcp:write']);
    expect(requiredScopes({ method: 'tool/call', params: { tool_id: 'project.get' } })).toEqual(['mcp:read']);
  });

  it('the first scope a batch lacks is named; a token without MCP scopes may not even initialize', () => {
    const reader = person(['mcp:read']);
    expect(missingScope(reader, [call('project.list')])).toBeUndefined();
    expect(missingScope(reader, [call('project.list'), call('project.delete')])).toBe('mcp:write');
    expect(missingScope(person(['mcp:write']), [{ method: 'resources/list' }])).toBe('mcp:read');
    expect(missingScope(person([]), [{ method: 'initialize' }])).toBe('mcp:read');
  });

  it('approvals:decide is never honoured on a client-credentials token', () => {
    expect(principalHas(person(['approvals:decide']), 'approvals:decide')).toBe(true);
    expect(principalHas(client(['approvals:decide']), 'approvals:decide')).toBe(false);
    expect(principalHas(client(['mcp:write']), 'mcp:write')).toBe(true);
  });

  it('the challenge quotes its parameters and keeps a description to printable ASCII', () => {
    const config = {
      issuer: 'https://idp.test',
      resource: 'https://svc.test/mcp',
      audience: 'https://svc.test/mcp',
      scopesClaim: 'scope',
      clockToleranceSeconds: 30,
    };
    expect(challengeOf(config)).toBe(
      'Bearer resource_metadata="https://svc.test/.well-known/oauth-protected-resource"',
    );
    expect(challengeOf(config, { error: 'invalid_token', description: 'bad "x"\n' })).toBe(
      'Bearer resource_metadata="https://svc.test/.well-known/oauth-protected-resource", error="invalid_token", error_description="bad \\"x\\" "',
    );
  });
});

describe('elicitation answers of OAuth sessions (decision 0113)', () => {
  const policy = elicitationPolicyOf({
    SERVICE_ELICITATION_APPROVALS: 'verified',
    SERVICE_HOST: '127.0.0.1',
    SERVICE_OAUTH_ISSUER: 'https://idp.test',
  });
  const session = { can_elicit: true };

  it('decide only for a person holding approvals:decide, as that verified subject', () => {
    expect(decisionElicitation(policy, session, 'http', person(['mcp:write', 'approvals:decide']))).toEqual({
      approver: 'bob',
      verified: true,
      client_id: 'app',
    });
    expect(decisionElicitation(policy, session, 'http', person(['mcp:write']))).toBeUndefined();
    expect(decisionElicitation(policy, session, 'http', client(['mcp:write', 'approvals:decide']))).toBeUndefined();
    expect(decisionElicitation(policy, { can_elicit: false }, 'http', person(['approvals:decide']))).toBeUndefined();
    expect(
      decisionElicitation({ ...policy, mode: 'off' }, session, 'http', person(['approvals:decide'])),
    ).toBeUndefined();
  });

  it('with an issuer configured a request without a principal (the shared key) is not asked in verified mode', () => {
    expect(decisionElicitation(policy, session, 'http')).toBeUndefined();
  });
});
