import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import {
  createTokenVerifier,
  IssuerUnavailable,
  oauthConfigOf,
  principalOf,
  resourceUriOf,
  TokenRefused,
  type TokenVerifier,
} from '../../../gateway/auth/oauth.ts';
import { startTestIdp, type TestIdp } from '../../support/oidc-provider.ts';

const RESOURCE = 'https://design.example.test/mcp';
const OTHER = 'https://other.example.test/mcp';
let idp: TestIdp;
let otherIdp: TestIdp;
let verifier: TokenVerifier;

const now = () => Math.floor(Date.now() / 1000);
const refusal = async (token: string) => {
  const err = await verifier.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TokenRefused);
  return (err as TokenRefused).reason;
};

beforeAll(async () => {
  const accounts = { alice: { scopes: ['mcp:read'] } };
  idp = await startTestIdp({ resources: [RESOURCE, OTHER], accounts });
  otherIdp = await startTestIdp({ resources: [RESOURCE], accounts });
  const config = oauthConfigOf({
    SERVICE_PUBLIC_URL: 'https://Design.Example.test/',
    SERVICE_OAUTH_ISSUER: idp.issuer,
    SERVICE_OAUTH_AUDIENCE: undefined,
    SERVICE_OAUTH_SCOPES_CLAIM: 'scope',
  })!;
  verifier = createTokenVerifier(config);
});
afterAll(async () => {
  await idp?.close();
  await otherIdp?.close();
});

describe('access-token verifier against a real OpenID provider', () => {
  it('the resource is <public url>/mcp, canonical; an issuer without a public URL stops the start', () => {
    expect(resourceUriOf('https://Design.Example.test/')).toBe(RESOURCE);
    expect(resourceUriOf('https://x.test/base/')).toBe('https://x.test/base/mcp');
    expect(() =>
      oauthConfigOf({ SERVICE_OAUTH_ISSUER: idp.issuer, SERVICE_OAUTH_SCOPES_CLAIM: 'scope' } as never),
    ).toThrow(/SERVICE_PUBLIC_URL/);
  });

  it('a client-credentials token for this resource is a client principal with its scopes', async () => {
    const { token, clientId } = await idp.clientCredentialsToken({ resource: RESOURCE, scope: 'mcp:read mcp:write' });
    const p = await verifier.verify(token);
    expect(p).toEqual({ subject: clientId, client_id: clientId, scopes: ['mcp:read', 'mcp:write'], kind: 'client' });
  });

  it('a token the same issuer made for another resource is refused (audience)', async () => {
    const { token } = await idp.clientCredentialsToken({ resource: OTHER, scope: 'mcp:read' });
    expect(await refusal(token)).toBe('audience');
  });

  it('a token of another issuer is refused, and so is one signed by this key naming another issuer', async () => {
    const { token } = await otherIdp.clientCredentialsToken({ resource: RESOURCE, scope: 'mcp:read' });
    expect(['signature', 'issuer']).toContain(await refusal(token));
    const forged = await idp.sign({ iss: otherIdp.issuer, aud: RESOURCE, sub: 'bob', exp: now() + 60 });
    expect(await refusal(forged)).toBe('issuer');
  });

  it('expiry is checked with 30 s of skew; a token without exp is refused', async () => {
    const claims = { iss: idp.issuer, aud: RESOURCE, sub: 'bob', scope: 'mcp:read' };
    expect(await refusal(await idp.sign({ ...claims, exp: now() - 120 }))).toBe('expired');
    expect((await verifier.verify(await idp.sign({ ...claims, exp: now() - 10 }))).subject).toBe('bob');
    expect(await refusal(await idp.sign({ ...claims, nbf: now() + 120, exp: now() + 600 }))).toBe('not_yet_valid');
    expect(await refusal(await idp.sign(claims))).toBe('claims');
  });

  it('a tampered payload fails the signature; alg none and HS256 are refused', async () => {
    const good = await idp.sign({ iss: idp.issuer, aud: RESOURCE, sub: 'bob', scope: 'mcp:read', exp: now() + 60 });
    const [h, , s] = good.split('.');
    const body = Buffer.from(
      JSON.stringify({ iss: idp.issuer, aud: RESOURCE, sub: 'bob', scope: 'approvals:decide', exp: now() + 60 }),
    ).toString('base64url');
    expect(await refusal(`${h}.${body}.${s}`)).toBe('signature');
    const none = new UnsecuredJWT({ iss: idp.issuer, aud: RESOURCE, sub: 'bob', exp: now() + 60 }).encode();
    expect(await refusal(none)).toBe('malformed');
    const hs = await new SignJWT({ iss: idp.issuer, aud: RESOURCE, sub: 'bob', exp: now() + 60 })
      .setProtectedHeader({ alg: 'HS256', kid: idp.kid })
      .sign(new TextEncoder().encode('a'.repeat(32)));
    expect(await refusal(hs)).toBe('algorithm');
    expect(await refusal('not a token')).toBe('malformed');
  });

  it('the scopes claim may be a list; a scopes claim of another shape is refused', () => {
    expect(principalOf({ sub: 'u', scp: ['mcp:read'], azp: 'app' }, 'scp')).toEqual({
      subject: 'u',
      client_id: 'app',
      scopes: ['mcp:read'],
      kind: 'person',
    });
    expect(principalOf({ sub: 'x@clients', gty: 'client-credentials' }, 'scope').kind).toBe('client');
    expect(principalOf({ sub: 'oid', idtyp: 'app', appid: 'a' }, 'scope').kind).toBe('client');
    expect(() => principalOf({ sub: 'u', scope: 42 }, 'scope')).toThrow(TokenRefused);
  });

  it('an unreachable issuer is IssuerUnavailable (not the token), and the next call tries again', async () => {
    let up = false;
    const flaky: typeof fetch = (input, init) => (up ? fetch(input, init) : Promise.reject(new TypeError('refused')));
    const v = createTokenVerifier(verifier.config, { fetch: flaky });
    const { token } = await idp.clientCredentialsToken({ resource: RESOURCE, scope: 'mcp:read' });
    await expect(v.verify(token)).rejects.toBeInstanceOf(IssuerUnavailable);
    up = true;
    expect((await v.verify(token)).kind).toBe('client');
  });
});
