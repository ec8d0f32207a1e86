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

/** How a record names a principal: its subject, and the client it came through when that is another id. */
export const principalLabel = (p: Principal): string =>
  p.client_id && p.client_id !== p.subject ? `${p.subject} via ${p.client_id}` : p.subject;

/** The author a tool call's records carry: the verified principal's label, else the client's name, else the kind. */
export const callerAuthor = (c: { principal?: Principal; client?: string; kind: string }): string =>
  c.principal ? principalLabel(c.principal) : (c.client ?? c.kind);

/** What a verified principal may do with a scope: `approvals:decide` is never honoured on a client's token. */
export function principalHas(p: Principal, scope: OAuthScope): boolean {
  if (scope === 'approvals:decide' && p.kind !== 'person') return false;
  return p.scopes.includes(scope);
}

/** The principal a model call is made for (the run's starter, a chat request's caller): recorded in the call ledger. */
export const CallPrincipalSchema = z.object({
  subject: z.string().min(1).max(500),
  client_id: z.string().min(1).max(500).nullable(),
});
export type CallPrincipal = z.infer<typeof CallPrincipalSchema>;

/** Where a run was started: the HTTP API (`POST /v1/runs`) or a tool call (`flow.start_run`). */
export const StartSurfaceSchema = z.enum(['http', 'mcp']);
export type StartSurface = z.infer<typeof StartSurfaceSchema>;

/**
 * Who started a run (issue 29 point 3, decision 0113): the token's subject and client id. `verified` is true when the
 * gateway checked a credential for it (an OAuth access token, or a token of the approvals token file, whose principal
 * has no client nor kind); false for an MCP session's self-declared client name (the shared key or stdio).
 */
export const StartedBySchema = z.object({
  subject: z.string().min(1),
  client_id: z.string().min(1).nullable(),
  kind: z.enum(['person', 'client']).nullable(),
  verified: z.boolean(),
  surface: StartSurfaceSchema,
});
export type StartedBy = z.infer<typeof StartedBySchema>;

/** The started_by of a verified OAuth principal. */
export const startedByOf = (p: Principal, surface: StartSurface): StartedBy => ({
  subject: p.subject,
  client_id: p.client_id,
  kind: p.kind,
  verified: true,
  surface,
});
