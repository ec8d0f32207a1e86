import { call, type Caller } from '../../../brokers/actions.ts';
import { TwinViewActions } from '../../../contracts/actions/twin-views.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import type { McpResource } from '../../../contracts/mcp-features.ts';
import { SIM_FIELD_MEDIA_TYPE } from '../../../contracts/simulation.ts';
import type { SimResultEntry } from '../../../contracts/simulation-views.ts';
import type { CandidateSources } from '../candidates.ts';
import { jsonContents, notFound, readFailure, type ResourceProvider } from './provider.ts';
import { Uris } from './uris.ts';
import { projectOf } from './work-products.provider.ts';

/** How many results the per-project listing resource carries (newest first); the HTTP listing pages further. */
const COLLECTION_LIMIT = 100;

const uriOf = (r: { id: string; project_id: string | null }) =>
  Uris.simResult.expand({ project_id: r.project_id ?? '', result_id: r.id });

function entryOf(r: SimResultEntry): McpResource | undefined {
  const uri = uriOf(r);
  if (!uri) return undefined;
  const what = [r.analysisType, r.stale ? 'STALE' : undefined].filter(Boolean).join(', ');
  return {
    uri,
    name: r.name,
    description: `simulation result${what ? ` (${what})` : ''}`,
    mimeType: 'application/json',
  };
}

/** A result node, only when it is a simulation result of the project the URI names (else -32002, as unknown). */
async function resultOf(bus: Caller, uri: string, projectId: string, resultId: string) {
  const node = await call(bus, TwinActions.getNode, { node_id: resultId });
  if (node.node_type !== 'simulation_result' || node.project_id !== projectId) throw notFound(uri);
  return node;
}

/**
 * The twin's simulation results as resources: a project's results (newest first) and one result with its recorded
 * numbers, load case, analysed geometry (DERIVES_FROM edge), staleness and where its field payload is served.
 */
export function simResultsProvider(bus: Caller, candidates: CandidateSources): ResourceProvider {
  const complete = async (variable: string, ctx: Record<string, string>) =>
    variable === 'project_id'
      ? candidates.projects()
      : variable === 'result_id'
        ? candidates.simResults(ctx.project_id)
        : [];

  async function read(uri: string) {
    const list = Uris.simResults.match(uri);
    if (list) {
      await projectOf(bus, uri, list.project_id);
      const page = await call(bus, TwinViewActions.simResults, {
        project_id: list.project_id,
        limit: COLLECTION_LIMIT,
        offset: 0,
      });
      return jsonContents(uri, {
        project_id: list.project_id,
        total: page.total,
        ...(page.total > page.results.length
          ? { more: `the newest ${page.results.length}; GET /v1/simulation/results?project_id=… pages further` }
          : {}),
        results: page.results.map((r) => ({ uri: uriOf(r) ?? null, ...r })),
      });
    }
    const one = Uris.simResult.match(uri);
    if (!one) throw notFound(uri);
    const node = await resultOf(bus, uri, one.project_id, one.result_id);
    const p = node.properties;
    const field =
      p.field_stored === true && typeof p.field_content_hash === 'string'
        ? {
            media_type: SIM_FIELD_MEDIA_TYPE,
            content_hash: p.field_content_hash,
            http: `/v1/simulation/results/${node.id}/field`,
          }
        : null;
    return jsonContents(uri, { uri, field, node });
  }

  return {
    name: 'sim-results',
    templates: [
      {
        uri: Uris.simResults,
        uriTemplate: Uris.simResults.template,
        name: 'project-sim-results',
        title: "A project's simulation results",
        description: 'The newest results of the project with their numbers and staleness',
        mimeType: 'application/json',
        complete,
      },
      {
        uri: Uris.simResult,
        uriTemplate: Uris.simResult.template,
        name: 'sim-result',
        title: 'One simulation result',
        description: 'Recorded numbers, load case, analysed geometry, staleness and field of a result',
        mimeType: 'application/json',
        complete,
      },
    ],

    async list(offset, limit) {
      const { results, total } = await call(bus, TwinViewActions.simResults, { limit, offset });
      const resources = results.map(entryOf).filter((e): e is McpResource => e !== undefined);
      const done = offset + results.length;
      return { resources, next: done < total && results.length ? done : undefined };
    },

    owns: (uri) => Boolean(Uris.simResults.match(uri) ?? Uris.simResult.match(uri)),

    read,

    async check(uri) {
      const list = Uris.simResults.match(uri);
      if (list) return void (await projectOf(bus, uri, list.project_id));
      const one = Uris.simResult.match(uri);
      if (!one) throw notFound(uri);
      await resultOf(bus, uri, one.project_id, one.result_id);
    },
  };
}
