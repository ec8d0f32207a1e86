import { z } from 'zod';
import { defineAction } from '../define.ts';
import {
  CredentialCreateSchema,
  CredentialMaskedSchema,
  ModelRoutingHealthSchema,
  ProjectRoutesPutSchema,
  ProjectRoutesSchema,
  ProvidersListSchema,
  ResolvedRouteSchema,
  ResolveRouteParamsSchema,
  RoutingQuerySchema,
  RoutingViewSchema,
  SelectionPutSchema,
  SelectionSchema,
} from '../harness-config.ts';

/** A route for a call, or the `environment` failure naming what to configure. */
export const RouteResultSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('ok'), route: ResolvedRouteSchema }),
  z.object({
    outcome: z.literal('failed'),
    failure: z.object({ class: z.literal('environment'), message: z.string(), retryable: z.literal(false) }),
  }),
]);

/** Bus actions of the harness actor's config part (credentials, providers, selection, routing). */
export const HarnessConfigActions = {
  /** Stores a provider credential; answers it masked (the key never comes back). */
  addCredential: defineAction('harness.addCredential', CredentialCreateSchema, CredentialMaskedSchema),
  providers: defineAction('harness.providers', z.object({}), ProvidersListSchema),
  /** Stores the durable selection; BAD_REQUEST when the model does not fit the provider's family. */
  setSelection: defineAction('harness.setSelection', SelectionPutSchema, SelectionSchema),
  routing: defineAction('harness.routing', RoutingQuerySchema, RoutingViewSchema),
  setProjectRoutes: defineAction(
    'harness.setProjectRoutes',
    ProjectRoutesPutSchema.extend({ project_id: z.string().min(1).max(200) }),
    ProjectRoutesSchema,
  ),
  /** The route of one call (logs llm_route_resolved), or the environment failure that names what to configure. */
  resolveRoute: defineAction('harness.resolveRoute', ResolveRouteParamsSchema, RouteResultSchema),
  /** /health's model_routing. */
  routingHealth: defineAction('harness.routingHealth', z.object({}), ModelRoutingHealthSchema),
} as const;
