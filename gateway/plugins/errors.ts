import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ErrorCatalogue, type ErrorBody, type ErrorCode, type ValidationIssue } from '../../contracts/index.ts';
import { toActorErrorShape } from '../../brokers/errors.ts';
import type { Logger } from '../../brokers/logger.ts';
import './dashboard.ts';

/** Answers with the one gateway error body `{error: {code, message, details}}` and the catalogue's status. */
export function sendError(reply: FastifyReply, code: ErrorCode, message: string, details?: Record<string, unknown>) {
  const body: ErrorBody = { error: details ? { code, message, details } : { code, message } };
  return reply.code(ErrorCatalogue[code].http).type('application/json').send(body);
}

/**
 * Fastify's own routing errors (`frameworkErrors`): a percent escape that does not decode (`/v1/projects/%ff`) is 400
 * `BAD_REQUEST`, a path parameter over the router's length limit 422 `VALIDATION_FAILED`; both in the error body.
 */
export function answerFrameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(reply, 'VALIDATION_FAILED', 'invalid params: a path parameter is too long', {
      issues: [{ path: 'params', message: 'is too long' }],
    });
  }
  const bad = err.code === 'FST_ERR_BAD_URL';
  return sendError(reply, 'BAD_REQUEST', bad ? `the URL does not decode: ${err.message}` : err.message);
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
};

/**
 * Maps every failure to the error body: malformed JSON 400, wrong or missing field 422 naming it, body over the
 * limit 413, actor errors by the catalogue, an unreachable actor 503; anything unexpected is a logged 500.
 */
export function registerErrorHandling(app: FastifyInstance, log: Logger): void {
  app.setNotFoundHandler(async (req, reply) => {
    // The dashboard answers page paths (deep links) when it is mounted; API paths stay the JSON 404.
    if (await app.dashboardAnswer?.(req, reply)) return reply;
    return sendError(reply, 'NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'body';
      const issues: ValidationIssue[] = err.validation.map((v) => {
        const p = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        return { path: p ? `${where}.${p}` : where, message: v.message ?? 'invalid' };
      });
      return sendError(reply, 'VALIDATION_FAILED', `invalid ${issues.map((i) => i.path).join(', ')}`, { issues });
    }
    const fastifyCode = err.code && FASTIFY_CODES[err.code];
    if (fastifyCode) return sendError(reply, fastifyCode, err.message);
    if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
      return sendError(reply, 'INVALID_JSON', `body is not valid JSON: ${err.message}`);
    }
    if (isResponseSerializationError(err)) {
      log.error({ url: req.url, issues: err.cause.issues }, 'response does not match its contract');
      return sendError(reply, 'INTERNAL', 'response does not match its contract');
    }
    if (err.code === 'ECONNRESET' && req.raw.destroyed) {
      // The client went away before its body arrived (a cut upload, a drained connection at stop): nobody to answer.
      log.debug({ url: req.url }, 'request aborted by the client');
      return sendError(reply, 'BAD_REQUEST', 'the connection closed before the request was received');
    }
    const shape = toActorErrorShape(err);
    // A refusal that carries a WWW-Authenticate challenge (gateway/approvals/challenge.ts: OAuth bearers, RFC 6750).
    const challenge = (err as { challenge?: unknown }).challenge;
    if (typeof challenge === 'string' && (shape.code === 'AUTH_REQUIRED' || shape.code === 'FORBIDDEN'))
      reply.header('www-authenticate', challenge);
    if (shape.code === 'INTERNAL') log.error({ err, url: req.url }, 'unhandled gateway error');
    return sendError(reply, shape.code, shape.message, shape.data);
  });
}
