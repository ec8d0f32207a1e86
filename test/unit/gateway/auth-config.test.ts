import { describe, expect, it } from 'vitest';
import { AuthConfigSchema } from '../../../contracts/auth-config.ts';
import { authConfigOf } from '../../../gateway/routes/auth-config.routes.ts';

const base = { SERVICE_OAUTH_SCOPES_CLAIM: 'scope' } as const;

// Decision 0120: the dashboard signs people in only when the node has an issuer and a dashboard client.
describe('the dashboard sign-in settings', () => {
  it('are off without an issuer, or without a dashboard client id: the dashboard works as before', () => {
    expect(authConfigOf({ ...base })).toEqual({ sign_in: false });
    expect(authConfigOf({ ...base, SERVICE_OAUTH_DASHBOARD_CLIENT_ID: 'dash' })).toEqual({ sign_in: false });
    expect(
      authConfigOf({ ...base, SERVICE_PUBLIC_URL: 'https://d.example.test', SERVICE_OAUTH_ISSUER: 'https://id.test/' }),
    ).toEqual({ sign_in: false });
  });

  it('name the issuer, the public client, the scopes and the audience the gateway checks', () => {
    const on = authConfigOf({
      ...base,
      SERVICE_PUBLIC_URL: 'https://d.example.test/',
      SERVICE_OAUTH_ISSUER: 'https://id.example.test/',
      SERVICE_OAUTH_DASHBOARD_CLIENT_ID: 'dash',
    });
    expect(AuthConfigSchema.parse(on)).toEqual({
      sign_in: true,
      issuer: 'https://id.example.test/',
      client_id: 'dash',
      scopes: ['openid', 'profile', 'email', 'approvals:decide'],
      resource: 'https://d.example.test/mcp',
      callback_path: '/auth/callback',
    });
    const aud = authConfigOf({
      ...base,
      SERVICE_PUBLIC_URL: 'https://d.example.test',
      SERVICE_OAUTH_ISSUER: 'https://id.example.test/',
      SERVICE_OAUTH_AUDIENCE: 'design-api',
      SERVICE_OAUTH_DASHBOARD_CLIENT_ID: 'dash',
    });
    expect(AuthConfigSchema.parse(aud)).toMatchObject({ resource: 'design-api' });
  });
});
