import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { TwinViewActions as V } from '../../contracts/actions/twin-views.actions.ts';
import { ProjectsActions } from '../../contracts/actions/projects.actions.ts';
import { NodeApprovalBodySchema, NodeApprovalResultSchema } from '../../contracts/approvals.ts';
import { toValidationIssues } from '../../contracts/errors.ts';
import { findNulOrDepth } from '../../contracts/nul.ts';
import {
  ConstraintCreateBodySchema,
  ConstraintCreateResultSchema,
  ImportFieldsSchema,
  ImportResultSchema,
} from '../../contracts/twin-forms.ts';
import { decideViaQueue, logIgnoredIdentity } from '../approvals/decide.ts';
import type { GatewayDeps } from '../deps.ts';
import { gatewayBlobs } from '../plugins/blob-reply.ts';

const MEDIA_BY_EXTENSION: Record<string, string> = {
  step: 'model/step',
  stp: 'model/step',
  iges: 'model/iges',
  igs: 'model/iges',
  frd: 'text/plain',
  dat: 'text/plain',
  vtu: 'application/xml',
};

interface Upload {
  fileName: string;
  mediaType: string;
  bytes: Buffer;
}

/** Reads the import form: the `file` part (over the upload limit: 413) and the text fields; other file parts are drained. */
async function readForm(
  req: FastifyRequest,
  limit: number,
): Promise<{ upload?: Upload; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new ActorError('UNSUPPORTED_MEDIA_TYPE', 'the import form is multipart/form-data');
  const fields: Record<string, string> = {};
  let upload: Upload | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: limit } })) {
      if (part.type === 'field') fields[part.fieldname] = String(part.value);
      else if (part.fieldname === 'file' && !upload && part.filename) {
        const bytes = await part.toBuffer();
        const ext = part.filename.split('.').pop()?.toLowerCase() ?? '';
        const sent = part.mimetype && part.mimetype !== 'application/octet-stream' ? part.mimetype : undefined;
        upload = {
          fileName: path.basename(part.filename),
          mediaType: sent ?? MEDIA_BY_EXTENSION[ext] ?? 'application/octet-stream',
          bytes,
        };
      } else part.file.resume();
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ActorError('PAYLOAD_TOO_LARGE', `the file is over the upload limit of ${limit} bytes`, {
        limit_bytes: limit,
      });
    // A part or file count over the form's limits is a wrong form (422); anything busboy throws is a malformed one (400).
    if (code?.startsWith('FST_'))
      throw new ActorError('VALIDATION_FAILED', `the import form cannot be read: ${(err as Error).message}`);
    throw new ActorError('BAD_REQUEST', `the import form is malformed: ${(err as Error).message}`);
  }
  return { upload, fields };
}

/** 404 for an unknown project before anything is written under it. */
const projectExists = (deps: GatewayDeps, id: string) => call(deps.caller, ProjectsActions.get, { id });

/**
 * `/v1/twin` writes driven over HTTP: the multipart import form (`POST /import`, 201), constraint creation
 * (`POST /constraints`, 201; README explains the path) and the sketch and technical-drawing approvals.
 */
export function twinWritesRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    if (!app.hasContentTypeParser('multipart/form-data'))
      await app.register(multipart, { limits: { fileSize: deps.config.SERVICE_UPLOAD_LIMIT_BYTES } });
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/import',
      { schema: { response: { 201: ImportResultSchema } }, config: { multipart: true, form: ImportFieldsSchema } },
      async (req, reply) => {
        const { upload, fields } = await readForm(req, deps.config.SERVICE_UPLOAD_LIMIT_BYTES);
        const nul =
          findNulOrDepth(fields, 'body') ??
          (upload?.fileName.includes('\u0000')
            ? { path: 'body.file', message: 'the file name must not contain a NUL character' }
            : undefined);
        if (nul) throw ActorError.validation([nul]);
        const parsed = ImportFieldsSchema.safeParse(fields);
        const issues = parsed.success
          ? []
          : toValidationIssues(parsed.error).map((i) => ({ ...i, path: `body.${i.path}` }));
        if (!upload) issues.unshift({ path: 'body.file', message: 'a file is required' });
        if (!parsed.success || !upload) throw ActorError.validation(issues);
        const form = parsed.data;
        if (form.project_id) await projectExists(deps, form.project_id);
        const blob = await (await gatewayBlobs(deps)).put(upload.bytes, upload.mediaType);
        const result = await call(deps.caller, V.importFile, {
          project_id: form.project_id ?? null,
          wp_type: form.wp_type,
          name: upload.fileName,
          description: form.description,
          domain: form.domain,
          size_bytes: blob.size_bytes,
          file: {
            sha256: blob.sha256,
            name: upload.fileName.replace(/[^A-Za-z0-9_.-]+/g, '_'),
            media_type: upload.mediaType,
          },
          writer: { author: 'import' },
        });
        return reply.code(201).header('location', `/v1/twin/nodes/${result.node_id}`).send(result);
      },
    );

    r.post(
      '/constraints',
      { schema: { body: ConstraintCreateBodySchema, response: { 201: ConstraintCreateResultSchema } } },
      async (req, reply) => {
        await projectExists(deps, req.body.projectId);
        const result = await call(deps.caller, V.addConstraint, { ...req.body, author: 'http' });
        return reply.code(201).header('location', `/v1/twin/nodes/${result.setWorkProductId}`).send(result);
      },
    );

    // The approvals queue's decision code (sketch:<id>, drawing:<id>), surface unknown as on every older per-kind route;
    // `approved_by` is ignored (the approver is the authenticated principal) and logged.
    const approvals: [string, 'sketch' | 'drawing'][] = [
      ['approve-sketch', 'sketch'],
      ['approve-technical-drawing', 'drawing'],
    ];
    for (const [suffix, prefix] of approvals) {
      const schema = {
        params: z.object({ id: z.string().min(1).max(200) }),
        headers: z.looseObject({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        body: NodeApprovalBodySchema.nullable(),
        response: { 200: NodeApprovalResultSchema },
      };
      r.post(`/nodes/:id/${suffix}`, { schema, preValidation: logIgnoredIdentity(deps) }, async (req) => {
        const item = await decideViaQueue(deps, req, {
          id: `${prefix}:${req.params.id}`,
          decision: 'approve',
          route: 'legacy',
          idem: req.headers['idempotency-key'],
        });
        return {
          node_id: req.params.id,
          approved: item.status === 'approved',
          approved_at: item.decision?.decided_at ?? new Date().toISOString(),
        };
      });
    }
  };
}
