import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

/** True when the server is bound to a loopback address, where DNS rebinding is the threat the check answers. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host.startsWith('127.') || host === '::1' || host === '[::1]';
}

/** Hostname of a Host header value (`name:port`, `[v6]:port`), lower-cased. */
function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon > -1 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

/**
 * DNS-rebinding protection (notes/mcp-clients.md, server requirement 5): on a loopback-bound server the Host header
 * must name a loopback host (or one of SERVICE_ALLOWED_HOSTS), and an Origin, when present, must too. A request
 * without Origin is fine (SDK clients send none). On a non-loopback bind only the configured names are enforced.
 */
/**
 * The browser origins a dashboard may call this gateway from (cross-origin, `gateway/plugins/cors.ts`): those the host
 * check accepts by name, loopback on a loopback bind plus SERVICE_ALLOWED_HOSTS. A non-loopback bind with no names
 * configured accepts none: reading the API from a page of another origin must be asked for.
 */
export function createOriginCheck(opts: { boundHost: string; extraHosts: string[] }): (origin: string) => boolean {
  const extra = opts.extraHosts.map((h) => h.trim().toLowerCase()).filter(Boolean);
  const allowed = new Set([...(isLoopback(opts.boundHost) ? LOOPBACK_NAMES : []), ...extra]);
  return (origin) => {
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && allowed.has(hostnameOf(url.host));
    } catch {
      return false;
    }
  };
}

export function createHostCheck(opts: { boundHost: string; extraHosts: string[] }) {
  const extra = opts.extraHosts.map((h) => h.trim().toLowerCase()).filter(Boolean);
  const enforce = isLoopback(opts.boundHost) || extra.length > 0;
  const allowed = new Set([...(isLoopback(opts.boundHost) ? LOOPBACK_NAMES : []), ...extra]);

  return async function hostCheck(req: FastifyRequest, reply: FastifyReply) {
    if (!enforce) return;
    const host = req.headers.host;
    if (!host || !allowed.has(hostnameOf(host))) {
      return sendError(reply, 'FORBIDDEN_HOST', `Host ${JSON.stringify(host ?? '')} is not accepted by this server`);
    }
    const origin = req.headers.origin;
    if (origin === undefined) return;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return sendError(reply, 'FORBIDDEN_HOST', `Origin ${JSON.stringify(origin)} is not accepted by this server`);
    }
    if (!allowed.has(hostnameOf(originHost))) {
      return sendError(reply, 'FORBIDDEN_HOST', `Origin ${JSON.stringify(origin)} is not accepted by this server`);
    }
  };
}
