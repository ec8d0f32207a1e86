import { z } from 'zod';
import { FallbackReasonSchema, HarnessRoleSchema, ProviderFamilySchema, ProviderIdSchema } from './harness.ts';
import { ModelRoutingHealthSchema } from './health.ts';

/**
 * Wire shapes of the harness's `config` part (SPEC part 6, "Chat and harness rules" 10-11, Authentication rule 7):
 * credentials (never answered in full), providers, the durable selection and the per-role routes.
 */

/** `POST /v1/harness/credentials`: a key for a provider; any provider other than openai/anthropic needs base_url. */
export const CredentialCreateSchema = z.strictObject({
  provider: ProviderIdSchema,
  api_key: z.string().min(1).max(4096).regex(/^\S+$/, { message: 'an api key has no spaces or line breaks' }),
  label: z.string().min(1).max(200).optional(),
  base_url: z
    .url({ protocol: /^https?$/, message: 'base_url is an http(s) URL' })
    .max(2000)
    .optional(),
});
export type CredentialCreate = z.infer<typeof CredentialCreateSchema>;

export const CredentialStatusSchema = z.enum(['healthy', 'dead']);
export type CredentialStatus = z.infer<typeof CredentialStatusSchema>;

/** A credential as every route answers it: the key reduced to its last 4 characters. */
export const CredentialMaskedSchema = z.object({
  id: z.string(),
  provider: ProviderIdSchema,
  label: z.string().nullable(),
  last4: z.string(),
  base_url: z.string().nullable(),
  status: CredentialStatusSchema,
  created_at: z.string(),
});
export type CredentialMasked = z.infer<typeof CredentialMaskedSchema>;

/** A fallback as `/v1/harness/providers` shows the last one of a provider (the primary that was not used). */
export const FallbackEventSchema = z.object({
  at: z.string(),
  role: HarnessRoleSchema,
  primary: z.string(),
  fallback: z.string(),
  reason: FallbackReasonSchema,
});
export type FallbackEvent = z.infer<typeof FallbackEventSchema>;

/** One provider: family, endpoint, configured (has a healthy credential) and its fallbacks since the start. */
export const ProviderStatusSchema = z.object({
  id: ProviderIdSchema,
  family: ProviderFamilySchema,
  base_url: z.string().nullable(),
  first_party: z.boolean(),
  configured: z.boolean(),
  credentials: z.array(CredentialMaskedSchema),
  last_fallback: FallbackEventSchema.nullable(),
  fallback_count: z.number().int().min(0),
});
export const ProvidersListSchema = z.object({ providers: z.array(ProviderStatusSchema) });
export type ProvidersList = z.infer<typeof ProvidersListSchema>;

/** `PUT /v1/harness/selection`: the default provider and model of every role without a route. */
export const SelectionPutSchema = z.strictObject({ provider: ProviderIdSchema, model: z.string().min(1).max(200) });
export type SelectionPut = z.infer<typeof SelectionPutSchema>;
export const SelectionSchema = z.object({
  provider: ProviderIdSchema,
  model: z.string(),
  updated_at: z.string(),
});
export type Selection = z.infer<typeof SelectionSchema>;

/** Where a resolved route came from, highest precedence first (SPEC rule 11). */
export const RouteSourceSchema = z.enum(['explicit', 'phase', 'project', 'file', 'env', 'selection']);
export type RouteSource = z.infer<typeof RouteSourceSchema>;

/** One role's effective route: `configured` when its provider has a healthy credential; `error` when invalid. */
export const EffectiveRouteSchema = z.object({
  role: HarnessRoleSchema,
  provider: ProviderIdSchema.nullable(),
  model: z.string().nullable(),
  source: RouteSourceSchema.nullable(),
  configured: z.boolean(),
  error: z.string().nullable(),
});
export type EffectiveRoute = z.infer<typeof EffectiveRouteSchema>;

export const RoutingQuerySchema = z.object({ project_id: z.string().min(1).max(200).optional() });
/** `GET /v1/harness/routing`: every role's route, the default (the selection) and what is wrong. */
export const RoutingViewSchema = z.object({
  project_id: z.string().nullable(),
  default_provider: ProviderIdSchema.nullable(),
  default_model: z.string().nullable(),
  routes: z.array(EffectiveRouteSchema),
  problems: z.array(z.string()),
});
export type RoutingView = z.infer<typeof RoutingViewSchema>;

/** A route as written: `provider:model`. */
export const RouteTextSchema = z.string().min(3).max(300);
/** `PUT /v1/harness/routing/projects/{project_id}`: the project's routes, replacing what it had (empty clears). */
export const ProjectRoutesPutSchema = z.strictObject({ routes: z.record(HarnessRoleSchema, RouteTextSchema) });
export const ProjectRoutesSchema = z.object({
  project_id: z.string(),
  routes: z.record(z.string(), z.object({ provider: ProviderIdSchema, model: z.string() })),
});
export type ProjectRoutes = z.infer<typeof ProjectRoutesSchema>;

/** Params of `harness.resolveRoute`: a role, optionally an explicit per-call model, the phase's model, the project. */
export const ResolveRouteParamsSchema = z.object({
  role: HarnessRoleSchema,
  explicit: z.object({ provider: ProviderIdSchema, model: z.string().min(1) }).optional(),
  phase_model: z.object({ provider: ProviderIdSchema, model: z.string().min(1) }).optional(),
  project_id: z.string().min(1).max(200).optional(),
  run_id: z.string().min(1).max(200).optional(),
});
export const ResolvedRouteSchema = z.object({
  role: HarnessRoleSchema,
  provider: ProviderIdSchema,
  model: z.string(),
  source: RouteSourceSchema,
  family: ProviderFamilySchema,
  base_url: z.string().nullable(),
  configured: z.boolean(),
});
export type ResolvedRoute = z.infer<typeof ResolvedRouteSchema>;

export { ModelRoutingHealthSchema };
