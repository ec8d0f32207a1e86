import { z } from 'zod';

/** Where the dashboard's sign-in comes back to, on the origin that served the page (decision 0120). */
export const DASHBOARD_CALLBACK_PATH = '/auth/callback';

/** What the dashboard asks for: an ID token for the person's name, and the right to decide approvals. */
export const DASHBOARD_SCOPES = ['openid', 'profile', 'email', 'approvals:decide'] as const;

/**
 * `GET /v1/auth/config` (issue 29 point 4, decision 0120): what the dashboard needs to sign a person in, all of it
 * public. `sign_in: false` when the gateway has no issuer or no dashboard client (the dashboard works as without
 * OAuth); otherwise the issuer, the dashboard's public client id (no secret exists), the scopes to ask for and the
 * resource (RFC 8707) the access token is for, which is the audience the gateway checks.
 */
export const AuthConfigSchema = z.discriminatedUnion('sign_in', [
  z.object({ sign_in: z.literal(false) }),
  z.object({
    sign_in: z.literal(true),
    issuer: z.string().url(),
    client_id: z.string().min(1),
    scopes: z.array(z.string().min(1)),
    resource: z.string().min(1),
    callback_path: z.literal(DASHBOARD_CALLBACK_PATH),
  }),
]);
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
