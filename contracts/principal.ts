import { z } from 'zod';

/** The scopes the tool server's OAuth resource server knows (issue 29 point 2, decision 0111). */
export const OAUTH_SCOPES = ['mcp:read', 'mcp:write', 'approvals:decide'] as const;
export const OAuthScopeSchema = z.enum(OAUTH_SCOPES);
export type OAuthScope = z.infer<typeof OAuthScopeSchema>;

/**
 * Who a verified access token names (decision 0110). `subject` is the token's `sub`; `client_id` the OAuth client that
 * asked for it (RFC 9068 `client_id`, else `azp`/`appid`/`cid`, else null); `scopes` the granted scopes as the token
 * lists them; `kind` person, or client for a token issued to a client acting for itself (client credentials), which
 * never holds `approvals:decide` whatever its scopes say.
 */
export const PrincipalSchema = z.object({
  subject: z.string().min(1),
  client_id: z.string().min(1).nullable(),
  scopes: z.array(z.string()),
  kind: z.enum(['person', 'client']),
});
export type Principal = z.infer<typeof PrincipalSchema>;

/** What a verified principal may do with a scope: `approvals:decide` is never honoured on a client's token. */
export function principalHas(p: Principal, scope: OAuthScope): boolean {
  if (scope === 'approvals:decide' && p.kind !== 'person') return false;
  return p.scopes.includes(scope);
}
