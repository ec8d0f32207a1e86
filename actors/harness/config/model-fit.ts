import type { ProviderFamily } from '../../../contracts/harness.ts';
import { FIRST_PARTY_BASE_URL, isFirstParty as atFirstPartyUrl, modelFits as familyFits } from '../calls/family-fit.ts';

/**
 * Which models a provider can serve (SPEC rule 10), as the config part asks it of a configured provider: the one
 * rule is the calls part's `modelFits` (a first-party endpoint serves only its vendor's models; an endpoint at any
 * other base URL is a gateway and is never judged). A provider other than openai/anthropic with no endpoint known
 * yet (no credential) is not judged either: it cannot be called, and is refused at call time for that.
 */

export const OPENAI_BASE_URL = FIRST_PARTY_BASE_URL.openai_compatible;
export const ANTHROPIC_BASE_URL = FIRST_PARTY_BASE_URL.anthropic;

export interface ProviderShape {
  id: string;
  family: ProviderFamily;
  /** The endpoint; null when none is known. */
  base_url: string | null;
}

const FIRST_PARTY_IDS: Record<string, ProviderFamily> = { openai: 'openai_compatible', anthropic: 'anthropic' };

/** True when the provider is its vendor's own endpoint, whose models are judged. */
export function isFirstParty(p: ProviderShape): boolean {
  if (p.base_url === null) return FIRST_PARTY_IDS[p.id] === p.family;
  return atFirstPartyUrl(p.family, p.base_url);
}

/** Null when the provider can serve the model, else why not (a sentence naming the provider). */
export function modelMismatch(p: ProviderShape, model: string): string | null {
  if (!isFirstParty(p)) return null;
  const fit = familyFits(p.family, p.base_url ?? undefined, model);
  return fit.ok ? null : `model ${model} does not fit provider ${p.id}: ${fit.reason}`;
}

/** The same rule as a boolean. */
export const modelFits = (p: ProviderShape, model: string): boolean => modelMismatch(p, model) === null;
