import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { TwinViewActions as V } from '../../contracts/actions/twin-views.actions.ts';
import { TwinActions as T } from '../../contracts/actions/twin.actions.ts';
import {
  BaselineDetailSchema,
  BaselineDiffSchema,
  BaselineListSchema,
  ItemHistoryResultSchema,
} from '../../contracts/twin.ts';
import {
  CurrentViewSchema,
  DerivedPrdSchema,
  ItemDiffQuerySchema,
  ItemDiffSchema,
  PageQuerySchema,
  ProjectFilterSchema,
  RevisionIndexSchema,
} from '../../contracts/twin-views.ts';
import type { GatewayDeps } from '../deps.ts';

const KeyParams = z.object({ key: z.string().min(1).max(300) });
const Paged = ProjectFilterSchema.extend(PageQuerySchema.shape);

/** A reference that is not `KEY` or `KEY@n` names nothing: over HTTP it is a 404 like an unknown key. */
export async function refNotFound<R>(p: Promise<R>, ref: string): Promise<R> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ActorError && err.type === 'VALIDATION_FAILED' && /is not KEY or KEY@n/.test(err.message))
      throw ActorError.notFound('item', ref);
    throw err;
  }
}

/**
 * `/v1/twin` item views (SPEC "Twin, files, simulation, other"): the current view, an item's revisions and a diff of
 * two of them, the derived prd of a revision and the rendered prd of a project, baselines and their diff, the revision
 * index. Every read goes through the broker to the twin actor; unknown keys and baselines are 404.
 */
export function twinRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/current-view',
      { schema: { querystring: ProjectFilterSchema, response: { 200: CurrentViewSchema } } },
      (req) => call(deps.caller, V.currentView, req.query),
    );

    r.get(
      '/items/:key/revisions',
      { schema: { params: KeyParams, response: { 200: ItemHistoryResultSchema } } },
      (req) => refNotFound(call(deps.caller, T.itemHistory, { item_key: req.params.key }), req.params.key),
    );

    r.get(
      '/items/:key/diff',
      { schema: { params: KeyParams, querystring: ItemDiffQuerySchema, response: { 200: ItemDiffSchema } } },
      (req) => call(deps.caller, V.itemDiff, { key: req.params.key, ...req.query }),
    );

    r.get('/items/:key/prd', { schema: { params: KeyParams, response: { 200: DerivedPrdSchema } } }, (req) =>
      call(deps.caller, V.derivedPrd, { ref: req.params.key }),
    );

    r.get(
      '/projects/:project_id/prd',
      { schema: { params: z.object({ project_id: z.string().min(1).max(200) }) } },
      async (req, reply) => {
        const doc = await call(deps.caller, V.projectPrd, { project_id: req.params.project_id });
        return reply.type('text/markdown; charset=utf-8').header('x-prd-ref', doc.ref).send(doc.markdown);
      },
    );

    r.get('/baselines', { schema: { querystring: Paged, response: { 200: BaselineListSchema } } }, (req) =>
      call(deps.caller, T.baselines, req.query),
    );

    r.get(
      '/baselines/diff',
      {
        schema: {
          querystring: z.object({ a: z.string().min(1).max(200), b: z.string().min(1).max(200).optional() }),
          response: { 200: BaselineDiffSchema },
        },
      },
      (req) => call(deps.caller, T.baselineDiff, req.query),
    );

    r.get(
      '/baselines/:id',
      { schema: { params: z.object({ id: z.string().min(1).max(200) }), response: { 200: BaselineDetailSchema } } },
      (req) => call(deps.caller, T.baseline, { id: req.params.id }),
    );

    r.get('/revision-index', { schema: { querystring: Paged, response: { 200: RevisionIndexSchema } } }, (req) =>
      call(deps.caller, V.revisionIndex, req.query),
    );
  };
}
