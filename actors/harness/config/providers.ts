import type { ProviderFamily } from '../../../contracts/harness.ts';
import { ANTHROPIC_BASE_URL, isFirstParty, OPENAI_BASE_URL, type ProviderShape } from './model-fit.ts';

/**
 * The providers the harness knows (SPEC part 6): `openai` (the OpenAI-compatible family at OpenAI's endpoint),
 * `anthropic` (the Anthropic family), and any other id: the OpenAI-compatible family at the base URL its credential
 * names (Ollama at http://127.0.0.1:11434/v1, vLLM, LM Studio, a hosted gateway). A credential's base URL overrides
 * a first-party endpoint (a proxy); `openai` at another URL is then a multi-vendor gateway and never judged.
 */

const FIRST_PARTY: Record<string, { family: ProviderFamily; base_url: string }> = {
  openai: { family: 'openai_compatible', base_url: OPENAI_BASE_URL },
  anthropic: { family: 'anthropic', base_url: ANTHROPIC_BASE_URL },
};
export const FIRST_PARTY_IDS = Object.keys(FIRST_PARTY);

export interface ProviderInfo extends ProviderShape {
  first_party: boolean;
}

/** A provider's family and endpoint, given the base URL its credentials name (null: none does). */
export function providerInfo(id: string, credentialBaseUrl: string | null): ProviderInfo {
  const known = FIRST_PARTY[id];
  const shape: ProviderShape = known
    ? { id, family: known.family, base_url: credentialBaseUrl ?? known.base_url }
    : { id, family: 'openai_compatible', base_url: credentialBaseUrl };
  return { ...shape, first_party: isFirstParty(shape) };
}

/** True when a credential for `provider` must name its endpoint (any provider but the first-party ones). */
export const needsBaseUrl = (provider: string) => !FIRST_PARTY[provider];

/**
 * Where a credential's key is sent (issue 27, finding 1): its own base URL, else its provider's first-party endpoint;
 * never another credential's base URL. Null: a provider other than openai/anthropic whose credential names none (a
 * hand-edited file), which cannot be called.
 */
export const credentialEndpoint = (provider: string, credentialBaseUrl: string | null): string | null =>
  credentialBaseUrl ?? FIRST_PARTY[provider]?.base_url ?? null;
