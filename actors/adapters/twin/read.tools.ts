import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { defineTool, InvalidArgumentsError } from '../kit/tool.ts';
import { given, twinCall } from './common.ts';

const Ref = z.object({
  node_id: z.string().nullable().optional().describe('id of a node'),
  item_key: z.string().nullable().optional().describe('KEY (current revision for you) or KEY@n'),
});

/** `twin.get_node`, `twin.item_history` (SPEC Twin rule 4) and `twin.query_cypher` (rule 11). */
export const readTools = [
  defineTool({
    name: 'query_cypher',
    description:
      'Read-only Cypher over the twin graph (MATCH, OPTIONAL MATCH, WHERE, RETURN, ORDER BY, SKIP, LIMIT, $parameters; labels are node types such as cad_model, relationship types such as DERIVES_FROM). In a project-scoped call bind $project_id, e.g. MATCH (n {project_id: $project_id}).',
    input: z.object({
      query: z.string().min(1).max(20_000),
      params: z.record(z.string(), z.unknown()).default({}),
      max_rows: z.number().int().min(1).max(10_000).optional(),
    }),
    handler: (a, tc) =>
      twinCall(
        call(tc.ctx, T.query, {
          query: a.query,
          params: a.params,
          project_scope: tc.caller.project_id,
          run_id: tc.caller.run_id,
          max_rows: a.max_rows,
        }),
      ),
  }),
  defineTool({
    name: 'get_node',
    description:
      'Read one twin node with its edges, by node_id or by item_key (KEY gives your current revision, KEY@n that revision).',
    input: Ref,
    handler: async (a, tc) => {
      if (!given(a.node_id) && !given(a.item_key)) throw new InvalidArgumentsError('give node_id or item_key');
      return twinCall(
        call(tc.ctx, T.getNode, {
          node_id: given(a.node_id) ? a.node_id : undefined,
          item_key: given(a.item_key) ? a.item_key : undefined,
          run_id: tc.caller.run_id,
        }),
      );
    },
  }),
  defineTool({
    name: 'item_history',
    description:
      "List an item's revisions (by item_key or by a revision's node_id): head, statuses, change reasons, gates. Shows your own open drafts, never another run's; closed drafts always.",
    input: Ref.extend({ project_id: z.string().nullable().optional() }),
    handler: async (a, tc) => {
      if (!given(a.node_id) && !given(a.item_key)) throw new InvalidArgumentsError('give item_key or node_id');
      return twinCall(
        call(tc.ctx, T.itemHistory, {
          node_id: given(a.node_id) ? a.node_id : undefined,
          item_key: given(a.item_key) ? a.item_key : undefined,
          project_id: given(a.project_id) ? a.project_id : undefined,
          run_id: tc.caller.run_id,
        }),
      );
    },
  }),
];
