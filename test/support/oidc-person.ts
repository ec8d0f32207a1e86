import * as oauth from 'oauth4webapi';
import type { TestIdp } from './oidc-provider.ts';

/**
 * A person's access token the way the dashboard gets one: authorization code with PKCE (S256) for `resource`, the
 * provider's login and consent completed for `account` (which is granted only the scopes its account may have).
 */
export async function personToken(
  idp: TestIdp,
  opts: { account: string; resource: string; scope: string },
): Promise<{ token: string; clientId: string }> {
  const redirect = 'http://127.0.0.1/callback';
  const clientId = await idp.registerPublicClient(redirect);
  const issuer = new URL(idp.issuer);
  const insecure = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const client: oauth.Client = { client_id: clientId };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    client_id: clientId,
    redirect_uri: redirect,
    response_type: 'code',
    scope: opts.scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: opts.resource,
  }))
    url.searchParams.set(k, v);
  const back = await idp.authorize(url, opts.account);
  const params = oauth.validateAuthResponse(as, client, back, state);
  const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirect, verifier, {
    additionalParameters: { resource: opts.resource },
    ...insecure,
  });
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
  return { token: tokens.access_token, clientId };
}
