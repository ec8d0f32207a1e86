import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConversionResultSchema, ConvertUploadFormSchema } from '../../contracts/cad.ts';
import { createConvertPool } from '../../workers/convert/pool.ts';
import { createConversions, type Conversions } from '../convert/conversions.ts';
import { sendGlb } from '../convert/glb-reply.ts';
import { detectFormat } from '../convert/sniff.ts';
import type { GatewayDeps } from '../deps.ts';
import { gatewayBlobs } from '../plugins/blob-reply.ts';
import { sendError } from '../plugins/errors.ts';
import { nodeModelRoutes } from './model.routes.ts';

const GlbParams = z.object({ file: z.string().max(80) });

/**
 * `POST /v1/convert` (multipart, one STEP or IGES file in field `file`): answers the SPEC's conversion result
 * `{hash, glb_url, metadata, cached}`. Over `SERVICE_UPLOAD_LIMIT_BYTES` is 413; a form without the file, a file that is
 * not STEP/IGES, or one the reader cannot read is 422 naming the problem; a form busboy cannot parse (no boundary, a
 * part cut short) is 400. `GET /v1/convert/{hash}.glb` serves the GLB.
 */
function uploadRoutes(deps: GatewayDeps, conversions: Conversions) {
  return async function routes(app: FastifyInstance) {
    await app.register(multipart, {
      limits: { fileSize: deps.config.SERVICE_UPLOAD_LIMIT_BYTES, files: 1, fields: 10, parts: 12 },
    });
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/',
      { schema: { response: { 200: ConversionResultSchema } }, config: { multipart: true, form: z.object({}) } },
      async (req, reply) => {
        if (!req.isMultipart())
          return sendError(reply, 'UNSUPPORTED_MEDIA_TYPE', 'send the file as multipart/form-data in field "file"');
        let upload: { name: string; bytes: Buffer } | undefined;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file' && part.fieldname === 'file' && !upload)
              upload = { name: part.filename, bytes: await part.toBuffer() };
            else if (part.type === 'file') part.file.resume();
          }
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE') {
            return sendError(
              reply,
              'PAYLOAD_TOO_LARGE',
              `the file is larger than the upload limit of ${deps.config.SERVICE_UPLOAD_LIMIT_BYTES} bytes`,
              { limit_bytes: deps.config.SERVICE_UPLOAD_LIMIT_BYTES },
            );
          }
          if (code?.startsWith('FST_'))
            return sendError(
              reply,
              'VALIDATION_FAILED',
              `the multipart form cannot be read: ${(err as Error).message}`,
            );
          return sendError(reply, 'BAD_REQUEST', `the multipart form is malformed: ${(err as Error).message}`);
        }
        if (!upload)
          return sendError(
            reply,
            'VALIDATION_FAILED',
            'the form has no file: send a STEP or IGES file in field "file"',
            { issues: [{ path: 'file', message: 'required' }] },
          );
        const form = ConvertUploadFormSchema.safeParse({ file: new File([], upload.name) });
        const detected = detectFormat(upload.name, upload.bytes);
        if (!form.success || 'problem' in detected) {
          const message = 'problem' in detected ? detected.problem : form.error!.issues[0].message;
          return sendError(reply, 'VALIDATION_FAILED', message, { issues: [{ path: 'file', message }] });
        }
        return conversions.convert(new Uint8Array(upload.bytes), detected.format);
      },
    );

    r.get('/:file', { schema: { params: GlbParams } }, async (req, reply) => {
      const sha = /^([0-9a-f]{64})\.glb$/.exec(req.params.file)?.[1];
      const glb = sha && (await conversions.glb(sha));
      if (!sha || !glb) return sendError(reply, 'NOT_FOUND', `no converted model ${req.params.file}`);
      return sendGlb(reply, sha, glb, req.headers['if-none-match']);
    });
  };
}

/**
 * The conversion routes (SPEC endpoints `/v1/convert` and `/v1/twin/nodes/{id}/model`), sharing one cache and one worker
 * pool; the pool starts on the first conversion and stops with the gateway. Without a database connection they answer 503.
 */
export function conversionRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const conversions = createConversions({ blobs: () => gatewayBlobs(deps), pool: () => createConvertPool() });
    app.addHook('onClose', () => conversions.close());
    await app.register(uploadRoutes(deps, conversions), { prefix: '/v1/convert' });
    await app.register(nodeModelRoutes(deps, conversions), { prefix: '/v1/twin' });
  };
}
