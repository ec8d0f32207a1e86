import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { TwinViewActions as V } from '../../contracts/actions/twin-views.actions.ts';
import { TwinActions as T } from '../../contracts/actions/twin.actions.ts';
import {
  LoadCaseCreateSchema,
  LoadCaseListSchema,
  LoadCaseSchema,
  SimResultListSchema,
} from '../../contracts/simulation-views.ts';
import { SIM_FIELD_MEDIA_TYPE } from '../../contracts/simulation.ts';
import { PageQuerySchema, ProjectFilterSchema } from '../../contracts/twin-views.ts';
import type { GatewayDeps } from '../deps.ts';
import { gatewayBlobs, notModified, sendStored } from '../plugins/blob-reply.ts';

const Paged = ProjectFilterSchema.extend(PageQuerySchema.shape);

/** The spec's text for a result without a stored field (a normal state): 404 with this message. */
export const FIELD_NOT_STORED = 'field not stored';

/**
 * `/v1/simulation` (SPEC "Twin, files, simulation, other"): the result listing, one result's field payload (the stored
 * gzip bytes as they are, `Content-Encoding: gzip`, ETag = content hash, 304 on a matching If-None-Match; 404
 * `field not stored` without a field) and the reusable load cases. Metadata comes from the twin actor; field bytes
 * from the blob store on the gateway's own database, never re-compressed.
 */
export function simulationRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/results', { schema: { querystring: Paged, response: { 200: SimResultListSchema } } }, (req) =>
      call(deps.caller, V.simResults, req.query),
    );

    r.get(
      '/results/:id/field',
      { schema: { params: z.object({ id: z.string().min(1).max(200) }) } },
      async (req, reply) => {
        const node = await call(deps.caller, T.getNode, { node_id: req.params.id });
        if (node.node_type !== 'simulation_result')
          throw new ActorError('NOT_FOUND', `node ${node.id} is a ${node.node_type}, not a simulation result`, {
            node_id: node.id,
          });
        const p = node.properties;
        const key = typeof p.field_object_key === 'string' ? p.field_object_key : undefined;
        const hash = typeof p.field_content_hash === 'string' ? p.field_content_hash : undefined;
        if (p.field_stored !== true || !key || !hash)
          throw new ActorError('NOT_FOUND', FIELD_NOT_STORED, { node_id: node.id });
        if (notModified(reply, req.headers['if-none-match'], hash)) return reply;
        const blob = await (await gatewayBlobs(deps)).getByKey(key);
        if (!blob) throw new ActorError('NOT_FOUND', FIELD_NOT_STORED, { node_id: node.id, object_key: key });
        return sendStored(reply, blob.content, blob.sha256, SIM_FIELD_MEDIA_TYPE, { 'content-encoding': 'gzip' });
      },
    );

    r.get('/load-cases', { schema: { querystring: Paged, response: { 200: LoadCaseListSchema } } }, (req) =>
      call(deps.caller, V.loadCases, req.query),
    );

    r.post(
      '/load-cases',
      { schema: { body: LoadCaseCreateSchema, response: { 201: LoadCaseSchema } } },
      async (req, reply) => {
        const created = await call(deps.caller, V.createLoadCase, req.body);
        return reply.code(201).send(created);
      },
    );
  };
}
