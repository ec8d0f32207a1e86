import { describe, expect, it } from 'vitest';
import { OAuthScopeSchema, PrincipalSchema, callerAuthor, principalLabel } from '../../contracts/principal.ts';

describe('PrincipalSchema', () => {
  const good = { subject: 'alice', client_id: 'app-1', scopes: ['mcp:read'], kind: 'person' };

  it('accepts a verified principal, with or without a client id', () => {
    expect(PrincipalSchema.parse(good)).toEqual(good);
    expect(PrincipalSchema.parse({ ...good, client_id: null }).client_id).toBeNull();
  });

  it('refuses an empty subject, an unknown kind, scopes that are not strings', () => {
    expect(PrincipalSchema.safeParse({ ...good, subject: '' }).success).toBe(false);
    expect(PrincipalSchema.safeParse({ ...good, kind: 'robot' }).success).toBe(false);
    expect(PrincipalSchema.safeParse({ ...good, scopes: [1] }).success).toBe(false);
    expect(PrincipalSchema.safeParse({ ...good, client_id: undefined }).success).toBe(false);
  });

  it('OAuthScopeSchema names the three scopes only', () => {
    expect(OAuthScopeSchema.options).toEqual(['mcp:read', 'mcp:write', 'approvals:decide']);
    expect(OAuthScopeSchema.safeParse('admin').success).toBe(false);
  });

  it('records name the subject and the client it came through; without a token the client name as before', () => {
    expect(principalLabel(PrincipalSchema.parse(good))).toBe('alice via app-1');
    expect(principalLabel({ ...PrincipalSchema.parse(good), client_id: 'alice' })).toBe('alice');
    expect(callerAuthor({ kind: 'remote', client: 'claude', principal: PrincipalSchema.parse(good) })).toBe(
      'alice via app-1',
    );
    expect(callerAuthor({ kind: 'remote', client: 'claude' })).toBe('claude');
    expect(callerAuthor({ kind: 'remote' })).toBe('remote');
  });
});
