import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createOriginCheck } from './host-check.ts';

/** Request headers the dashboard (and other browser clients) send: JSON, targets, the approval surface, auth, MCP. */
const ALLOWED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'if-match',
  'idempotency-key',
  'x-service-surface',
  'x-service-on-behalf-of',
  'x-service-agent',
  'x-service-admin-token',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
];

/**
 * Cross-origin reads for a dashboard served elsewhere (Settings keeps another gateway address, `npm run
 * dev:dashboard` on its own port): an origin the host check accepts by name gets the CORS headers, with ETag exposed
 * so decisions can name their target; any other origin gets none (and the host check refuses it anyway).
 */
export const corsPlugin = (opts: { boundHost: string; extraHosts: string[] }) =>
  fp(async (app: FastifyInstance) => {
    const accepted = createOriginCheck(opts);
    await app.register(cors, {
      origin: (origin, cb) => cb(null, origin !== undefined && accepted(origin)),
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: ['etag', 'mcp-session-id', 'location'],
      maxAge: 600,
    });
  });
