/**
 * Signing a person in with the gateway's issuer (issue 29 point 4, decision 0120): OpenID Connect authorization code
 * with PKCE (S256) from the browser, as a public client (no secret exists to leak). The code verifier, state and nonce
 * of the sign-in under way live in sessionStorage until the callback uses them once; the token exchange is a fetch from
 * the page to the issuer's token endpoint. The access token is requested for the gateway's resource (RFC 8707), so the
 * approval routes accept it; the ID token gives the name the shell shows.
 */
import * as oauth from 'oauth4webapi';
import type { AuthConfig } from '../../../contracts/auth-config.ts';
import { saveSession, type Session } from './session.ts';

export type SignInConfig = Extract<AuthConfig, { sign_in: true }>;

const PENDING_KEY = 'service.auth.pending';

interface Pending {
  code_verifier: string;
  state: string;
  nonce: string;
  return_to: string;
}

/** Plain http is accepted only for an issuer on this machine (a test or development provider), never elsewhere. */
function httpOptions(issuer: URL): { [oauth.allowInsecureRequests]?: true } {
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
  return issuer.protocol === 'http:' && loopback ? { [oauth.allowInsecureRequests]: true } : {};
}

/** The redirect URI registered for the dashboard client: the callback on the origin that served this page. */
export const redirectUri = (cfg: SignInConfig) => `${location.origin}${cfg.callback_path}`;

async function discover(cfg: SignInConfig): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(cfg.issuer);
  const res = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...httpOptions(issuer) });
  return oauth.processDiscoveryResponse(issuer, res);
}

/** Starts a sign-in: remembers the PKCE verifier, state and nonce for this tab and goes to the issuer's login page. */
export async function beginSignIn(cfg: SignInConfig, returnTo: string): Promise<void> {
  const as = await discover(cfg);
  if (!as.authorization_endpoint) throw new Error(`the issuer ${cfg.issuer} publishes no authorization endpoint`);
  const pending: Pending = {
    code_verifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    return_to: returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/',
  };
  const url = new URL(as.authorization_endpoint);
  const params: Record<string, string> = {
    client_id: cfg.client_id,
    redirect_uri: redirectUri(cfg),
    response_type: 'code',
    scope: cfg.scopes.join(' '),
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.code_verifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
    resource: cfg.resource,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  location.assign(url.href);
}

function takePending(): Pending {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY); // one use: a reloaded callback page cannot replay the code
  const p = raw ? (JSON.parse(raw) as Partial<Pending>) : undefined;
  if (!p || typeof p.code_verifier !== 'string' || typeof p.state !== 'string' || typeof p.nonce !== 'string')
    throw new Error('no sign-in was started in this tab: start again from Sign in');
  return { code_verifier: p.code_verifier, state: p.state, nonce: p.nonce, return_to: p.return_to ?? '/' };
}

const claimText = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/**
 * Finishes a sign-in on the callback URL: checks the state, exchanges the code with the verifier, checks the ID
 * token's issuer, audience, expiry and nonce, and stores the session. Answers where to go next.
 */
export async function completeSignIn(
  cfg: SignInConfig,
  callback: URL,
): Promise<{ session: Session; returnTo: string }> {
  const pending = takePending();
  const as = await discover(cfg);
  const client: oauth.Client = { client_id: cfg.client_id };
  const params = oauth.validateAuthResponse(as, client, callback, pending.state);
  const res = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    redirectUri(cfg),
    pending.code_verifier,
    { additionalParameters: { resource: cfg.resource }, ...httpOptions(new URL(cfg.issuer)) },
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, res, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims) throw new Error('the issuer sent no ID token');
  const lifetime = typeof tokens.expires_in === 'number' ? tokens.expires_in * 1000 : claims.exp * 1000 - Date.now();
  const session: Session = {
    access_token: tokens.access_token,
    expires_at: Date.now() + lifetime,
    sub: claims.sub,
    name: claimText(claims.name) ?? claimText(claims.email) ?? claims.sub,
    email: claimText(claims.email) ?? null,
    issuer: cfg.issuer,
  };
  saveSession(session);
  return { session, returnTo: pending.return_to };
}

/** Words for a failed sign-in: the issuer's error (access_denied, ...) or what went wrong. */
export function signInError(err: unknown): string {
  if (err instanceof oauth.AuthorizationResponseError)
    return `the issuer refused the sign-in: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`;
  if (err instanceof oauth.ResponseBodyError)
    return `the issuer refused the token exchange: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`;
  return err instanceof Error ? err.message : String(err);
}
