import { createAdapterService } from '../kit/adapter.service.ts';
import { authorityTools } from './authority.tools.ts';
import { twinToolDeps } from './common.ts';
import { documentTools } from './document.tools.ts';
import { geometryTools } from './geometry.tools.ts';
import { readTools } from './read.tools.ts';
import { recordTools } from './record.tools.ts';

/** The `twin` adapter: the twin tools over the twin actor (query_cypher joins when its engine lands). */
export const createTwinAdapter = createAdapterService({
  id: 'twin',
  version: '0.1.0',
  capability: 'twin',
  tools: (infra) => {
    const deps = twinToolDeps(infra);
    return [...readTools, ...recordTools, ...documentTools(deps), ...geometryTools(deps), ...authorityTools];
  },
});
