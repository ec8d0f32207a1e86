import { createAdapterService } from '../kit/adapter.service.ts';
import { awaitGateTool } from './await-gate.tool.ts';
import { readTools } from './read.tools.ts';
import { writeTools } from './write.tools.ts';

/**
 * The `flow` adapter: the ten design-flow tools over the runs actor (and the flows actor's intent compiler). The hold
 * policy refuses every `flow.*` tool to the design-flow worker itself.
 */
export const createFlowAdapter = createAdapterService({
  id: 'flow',
  version: '0.1.0',
  capability: 'flow',
  tools: [...readTools, ...writeTools, awaitGateTool],
});
