import { MemoryActions as M } from '../../../contracts/actions/memory.actions.ts';
import {
  ExperienceListSchema,
  ExperienceQuerySchema,
  InsightListSchema,
  InsightQuerySchema,
} from '../../../contracts/sessions.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { defineTool } from '../kit/tool.ts';
import { actorCall } from '../kit/actor-call.ts';

const tools = [
  defineTool({
    name: 'retrieve_similar_experience',
    title: 'Retrieve similar past sessions',
    description:
      'Find captured agent sessions similar to a description of the current situation: sessions sharing words with the ' +
      'query in their title, summary or events, ranked by full-text relevance, each with its score and most relevant events. ' +
      'Optional project_id (default: the call context project) and limit (default 5). Also lists, under consolidated, ' +
      'the consolidated insights whose text matches (tier llm_inferred, with their sources). No match is an empty list.',
    input: ExperienceQuerySchema,
    output: ExperienceListSchema,
    handler: (args, tc) => actorCall(tc, M.similar, { ...args, project_id: args.project_id ?? tc.caller.project_id }),
  }),
  defineTool({
    name: 'list_insights',
    title: 'List recorded insights and lessons',
    description:
      'List the insight and lesson events agents logged, newest first, optionally for one project (default: the call ' +
      'context project) and one theme (data.theme), each with confidence verbatim: what was logged. Under consolidated, ' +
      'the insights POST /v1/memory/consolidate wrote: confidence llm_inferred, the model certainty (high, medium, low), ' +
      'importance and sources (session ids, and event seqs).',
    input: InsightQuerySchema,
    output: InsightListSchema,
    handler: (args, tc) => actorCall(tc, M.insights, { ...args, project_id: args.project_id ?? tc.caller.project_id }),
  }),
];

/** The `memory` adapter: similar experiences and insights, read from the captured sessions through the memory actor. */
export const createMemoryAdapter = createAdapterService({
  id: 'memory',
  version: '0.1.0',
  capability: 'memory',
  tools,
});
