import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

/** One route the gateway registered: its method and URL pattern, and whether it reads a multipart form. */
export interface RouteEntry {
  method: string;
  url: string;
  multipart: boolean;
}

/**
 * Route options a route sets to say it reads a multipart form (`config: { multipart: true, form }`): `form` is the
 * form's fields beside its `file` part, the contract the route checks them with, so the API reference shows the form.
 */
export interface MultipartRouteConfig {
  multipart?: boolean;
  form?: z.ZodObject;
}

/**
 * Collects every route registered on `app` from now on (an `onRoute` hook), so checks that must cover every route (the
 * bad-input sweep) read the gateway's own table instead of a hand-kept list. The answer fills as plugins register.
 */
export function collectRoutes(app: FastifyInstance): readonly RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    const multipart = (r.config as MultipartRouteConfig | undefined)?.multipart === true;
    for (const method of [r.method].flat()) routes.push({ method, url: r.url, multipart });
  });
  return routes;
}
