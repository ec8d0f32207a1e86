import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import type { Conversions } from '../convert/conversions.ts';
import { sendGlb } from '../convert/glb-reply.ts';
import { formatOfContent } from '../convert/sniff.ts';
import type { GatewayDeps } from '../deps.ts';
import { gatewayBlobs } from '../plugins/blob-reply.ts';
import { sendError } from '../plugins/errors.ts';

const NodeParams = z.object({ id: z.string().min(1).max(200) });

/**
 * `GET /v1/twin/nodes/{id}/model` (SPEC endpoints: converted 3D model): reads the node through the twin actor (drafts of
 * runs are not visible, so only committed revisions are served), loads the STEP/IGES its `object_key` names from the blob
 * store, and answers the GLB, converted once per source hash and cached like `POST /v1/convert`. A node without a model
 * file is 404 with the error body; a file the reader cannot read is 422.
 */
export function nodeModelRoutes(deps: GatewayDeps, conversions: Conversions) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/nodes/:id/model', { schema: { params: NodeParams } }, async (req, reply) => {
      const node = await call(deps.caller, TwinActions.getNode, { node_id: req.params.id });
      const noModel = (why: string) =>
        sendError(reply, 'NOT_FOUND', `node ${node.id} (${node.node_type} ${node.name}) has no model file: ${why}`, {
          node_id: node.id,
        });
      if (!node.object_key) return noModel('nothing is stored on it');
      const blob = await (await gatewayBlobs(deps)).getByKey(node.object_key);
      if (!blob) return noModel(`${node.object_key} is missing from the blob store`);
      const format = formatOfContent(blob.content);
      if (!format) return noModel(`${node.object_key} is not a STEP or IGES file`);
      const result = await conversions.convert(new Uint8Array(blob.content), format, blob.sha256);
      const glb = await conversions.glb(result.hash);
      if (!glb) return sendError(reply, 'INTERNAL', `the converted model of node ${node.id} is missing from the cache`);
      return sendGlb(reply, result.hash, glb, req.headers['if-none-match'], {
        'x-conversion-cached': String(result.cached),
      });
    });
  };
}
