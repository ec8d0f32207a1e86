import type { FastifyReply, FastifyRequest } from 'fastify';
import { findNulOrDepth, type InputProblem } from '../../contracts/nul.ts';
import { sendError } from './errors.ts';

// A C0 control character or DEL: never part of an id, a key or a file name carried in a path.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The tool server's routes answer in JSON-RPC and check their own params (gateway/mcp/server.ts). */
const isMcp = (url: string | undefined) => url === '/mcp' || url?.startsWith('/mcp/') === true;

function problemOf(req: FastifyRequest): InputProblem | undefined {
  for (const [name, value] of Object.entries((req.params ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string' && CONTROL.test(value))
      return { path: `params.${name}`, message: 'must not contain control characters' };
  }
  return findNulOrDepth(req.query, 'querystring') ?? findNulOrDepth(req.body, 'body');
}

/**
 * Gateway-wide `preValidation` hook (issue finding 5): a NUL character anywhere in the decoded path parameters, the
 * query or a JSON body, a control character in a path parameter, or a body nested deeper than the limit is refused
 * with 422 `VALIDATION_FAILED` naming the field (`params.id`, `querystring.project_id`, `body.spec.k`), before any
 * route schema, actor or query sees it. PostgreSQL cannot store NUL; this keeps its error text off the wire.
 */
export async function refuseHostileInput(req: FastifyRequest, reply: FastifyReply) {
  if (isMcp(req.routeOptions.url)) return;
  const p = problemOf(req);
  if (p) return sendError(reply, 'VALIDATION_FAILED', `invalid ${p.path}: ${p.message}`, { issues: [p] });
}
