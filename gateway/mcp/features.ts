import type { McpResourceContents } from '../../contracts/mcp-features.ts';
import { candidateSources } from './candidates.ts';
import type { McpDeps } from './context.ts';
import { conformancePrompts, conformanceResources } from './fixtures/conformance.ts';
import { servicePrompts } from './prompts/service.prompts.ts';
import type { PromptSource } from './prompts/source.ts';
import { knowledgeProvider } from './resources/knowledge.provider.ts';
import { notFound, readFailure, type ResourceProvider } from './resources/provider.ts';
import { simResultsProvider } from './resources/sim-results.provider.ts';
import { workProductsProvider } from './resources/work-products.provider.ts';

/** What the tool server offers beside tools: resource providers and prompt sources, in listing order. */
export interface McpFeatures {
  resources: readonly ResourceProvider[];
  prompts: readonly PromptSource[];
  /** `resources/read` over the providers: the one owning the URI answers, none = -32002. */
  read(uri: string): Promise<McpResourceContents[]>;
  /** `resources/subscribe`'s check that the URI names a resource the caller may read (-32002 otherwise). */
  check(uri: string): Promise<void>;
}

/**
 * Builds the features from the node's deps: knowledge sources, work products and simulation results, the service's
 * prompts, and, only with `deps.conformanceFixtures` (MCP_CONFORMANCE_FIXTURES=1), the conformance suite's fixtures.
 */
export function buildFeatures(deps: McpDeps): McpFeatures {
  const candidates = candidateSources(deps.bus);
  const resources: ResourceProvider[] = [
    knowledgeProvider(deps.bus, candidates),
    workProductsProvider(deps.bus, deps.db, candidates),
    simResultsProvider(deps.bus, candidates),
    ...(deps.conformanceFixtures ? [conformanceResources] : []),
  ];
  const ownerOf = (uri: string) => {
    const owner = resources.find((p) => p.owns(uri));
    if (!owner) throw notFound(uri);
    return owner;
  };
  // A provider's failure is mapped here, once: an actor's NOT_FOUND is -32002, anything else -32005 naming the URI.
  const guarded =
    <T>(fn: (p: ResourceProvider, uri: string) => Promise<T>) =>
    (uri: string): Promise<T> =>
      Promise.resolve()
        .then(() => fn(ownerOf(uri), uri))
        .catch((err: unknown) => {
          throw readFailure(uri, err);
        });
  const read = guarded((p, uri) => p.read(uri));
  return {
    resources,
    prompts: [servicePrompts(deps.bus, candidates, read), ...(deps.conformanceFixtures ? [conformancePrompts] : [])],
    read,
    check: guarded((p, uri) => p.check(uri)),
  };
}
