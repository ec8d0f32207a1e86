import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { defineTool } from '../kit/tool.ts';

const tools = [
  defineTool({
    name: 'search',
    description:
      'Find tools by words (e.g. "mesh convergence", "export step"). Returns matching tool ids with their descriptions, best first; a caller can then call a tool its profile does not list.',
    input: z.object({ query: z.string().min(1).max(500), limit: z.number().int().min(1).max(50).default(10) }),
    handler: (args, tc) => call(tc.ctx, ToolsActions.search, args),
  }),
];

/** The `tools` adapter: `tools.search` over the registry. */
export const createToolsAdapter = createAdapterService({
  id: 'tools',
  version: '0.1.0',
  capability: 'discovery',
  tools,
});
