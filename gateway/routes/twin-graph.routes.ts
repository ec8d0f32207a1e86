import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { TwinViewActions as V } from '../../contracts/actions/twin-views.actions.ts';
import { TwinActions as T } from '../../contracts/actions/twin.actions.ts';
import {
  LinkListSchema,
  NodeListSchema,
  NodeVersionsSchema,
  NodeViewSchema,
  PageQuerySchema,
  ProjectFilterSchema,
  RelationshipListSchema,
} from '../../contracts/twin-views.ts';
import type { GatewayDeps } from '../deps.ts';
import { gatewayBlobs, inlineDisposition, notModified, sendStored, servedMediaType } from '../plugins/blob-reply.ts';

const IdParams = z.object({ id: z.string().min(1).max(200) });

/**
 * `/v1/twin` graph reads (SPEC "Twin, files, simulation, other"): nodes (assemblies carry assemblyParts), a node's
 * relationships, the links between work products, a node's versions and its stored file. Metadata comes from the
 * twin actor over the broker; file bytes from the blob store on the gateway's own database, as stored.
 */
export function twinGraphRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    const nodesQuery = ProjectFilterSchema.extend(PageQuerySchema.shape).extend({
      node_type: z.string().min(1).max(100).optional(),
    });
    r.get('/nodes', { schema: { querystring: nodesQuery, response: { 200: NodeListSchema } } }, (req) =>
      call(deps.caller, V.nodes, req.query),
    );

    r.get('/nodes/:id', { schema: { params: IdParams, response: { 200: NodeViewSchema } } }, (req) =>
      call(deps.caller, V.nodeView, { node_id: req.params.id }),
    );

    r.get('/nodes/:id/versions', { schema: { params: IdParams, response: { 200: NodeVersionsSchema } } }, (req) =>
      call(deps.caller, V.nodeVersions, { node_id: req.params.id }),
    );

    const relQuery = z.object({ node_id: z.string().min(1).max(200), rel_type: z.string().min(1).max(100).optional() });
    r.get('/relationships', { schema: { querystring: relQuery, response: { 200: RelationshipListSchema } } }, (req) =>
      call(deps.caller, V.relationships, req.query),
    );

    const linksQuery = ProjectFilterSchema.extend({
      limit: z.coerce.number().int().min(1).max(5000).default(1000),
      offset: z.coerce.number().int().min(0).default(0),
    });
    r.get('/links', { schema: { querystring: linksQuery, response: { 200: LinkListSchema } } }, (req) =>
      call(deps.caller, V.links, req.query),
    );

    r.get('/nodes/:id/file', { schema: { params: IdParams } }, async (req, reply) => {
      const node = await call(deps.caller, T.getNode, { node_id: req.params.id });
      if (!node.object_key || !node.content_hash)
        throw new ActorError('NOT_FOUND', `node ${node.id} has no stored file`, { node_id: node.id });
      if (notModified(reply, req.headers['if-none-match'], node.content_hash)) return reply;
      const blob = await (await gatewayBlobs(deps)).getByKey(node.object_key);
      if (!blob)
        throw new ActorError('NOT_FOUND', `the file of node ${node.id} is missing from the blob store`, {
          node_id: node.id,
          object_key: node.object_key,
        });
      const name =
        typeof node.properties.file_name === 'string'
          ? node.properties.file_name
          : path.posix.basename(node.object_key);
      const recorded = typeof node.properties.media_type === 'string' ? node.properties.media_type : blob.media_type;
      return sendStored(reply, blob.content, blob.sha256, servedMediaType(name, recorded), {
        'content-disposition': inlineDisposition(name),
      });
    });
  };
}
