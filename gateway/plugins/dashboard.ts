import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Where `npm install` (postinstall: `vite build`) puts the dashboard's static files. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));

/**
 * Paths that belong to the API: an unknown one is the JSON 404, never the app. `/docs` is the API reference page
 * (swagger-ui) with its own files, and `/openapi.json` its document: a missing file there is no dashboard page.
 */
const API_PREFIXES = ['/v1', '/api', '/mcp', '/health', '/metrics', '/docs', '/openapi.json'];

const isApiPath = (p: string) => API_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));

/**
 * The dashboard's page headers: scripts and styles only from this origin; the API it talks to may sit at another
 * address (Settings), so connect-src stays open; nothing may frame it.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src *; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><main><h1>The dashboard is not built</h1><p>Run <code>npm run build:dashboard</code> (npm install runs it) and reload.
The API is up under <a href="/health">/health</a> and /v1.</p></main></body></html>`;

export interface DashboardOptions {
  /** Folder holding index.html and assets/ (default dashboard/dist). */
  dist?: string;
}

/**
 * Serves the dashboard (a single-page app) at `/` on the gateway's port. Any GET or HEAD path that is not an API path
 * and matches no route answers the app's index.html, so deep links (`/runs/<id>`) work; a hashed asset under
 * `/assets/` is cached for a year. Other methods and API paths keep the JSON `NOT_FOUND`.
 */
export const dashboardPlugin = (opts: DashboardOptions = {}) =>
  fp(async (app: FastifyInstance) => {
    const root = opts.dist ?? DASHBOARD_DIST;
    // Looked for on each page request until found: a build that lands after the start (npm run build:dashboard) is
    // served without a restart.
    let built = false;
    const isBuilt = () => (built ||= fs.existsSync(path.join(root, 'index.html')));
    await app.register(fastifyStatic, { root, serve: false, index: false, dotfiles: 'deny', suppressWarning: true });

    app.decorate('dashboardAnswer', async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const pathname = req.url.split('?')[0];
      if (isApiPath(pathname)) return false;
      reply.headers(PAGE_HEADERS);
      if (!isBuilt()) {
        await reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT);
        return true;
      }
      let rel: string;
      try {
        rel = decodeURIComponent(pathname).replace(/^\/+/, '');
      } catch {
        return false;
      }
      if (rel.startsWith('assets/') || /^[\w.-]+\.(?:svg|ico|png|txt|webmanifest)$/.test(rel)) {
        const file = path.join(root, rel);
        if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return false;
        const immutable = rel.startsWith('assets/');
        await reply.sendFile(rel, { cacheControl: immutable, maxAge: immutable ? '365d' : 0, immutable });
        return true;
      }
      await reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
      return true;
    });
  });

declare module 'fastify' {
  interface FastifyInstance {
    dashboardAnswer?: (req: FastifyRequest, reply: FastifyReply) => Promise<boolean>;
  }
}
