import type { ProviderFamily } from '../../../contracts/harness.ts';

/**
 * Which models a provider can serve (SPEC rule 10): a first-party family serves only its own vendor's models; an
 * OpenAI-compatible endpoint at a custom base URL is a multi-vendor gateway (Ollama, vLLM, OpenRouter, a proxy) and
 * is never judged. Written here by the config part; the calls part judges nothing (its families take what they are
 * given), so this is the one rule.
 */

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** OpenAI's own model names: gpt-*, chatgpt-*, the o-series (o1, o3-mini, o4-mini...), codex-*, computer-use-*. */
const OPENAI_MODELS = /^(gpt-|chatgpt-|o[1-9](-|$)|codex-|computer-use-)/;
/** Anthropic's own model names. */
const ANTHROPIC_MODELS = /^claude-/;

export interface ProviderShape {
  id: string;
  family: ProviderFamily;
  /** The endpoint; null for the family's first-party one. */
  base_url: string | null;
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();

/** True when the provider is its vendor's own endpoint, whose models are judged. */
export function isFirstParty(p: ProviderShape): boolean {
  if (p.family === 'anthropic') return true;
  return p.id === 'openai' && (p.base_url === null || sameUrl(p.base_url, OPENAI_BASE_URL));
}

/** Null when the provider can serve the model, else why not (a sentence naming both). */
export function modelMismatch(p: ProviderShape, model: string): string | null {
  if (!isFirstParty(p)) return null;
  if (p.family === 'anthropic') {
    return ANTHROPIC_MODELS.test(model)
      ? null
      : `model ${model} does not fit provider ${p.id} (anthropic family serves claude-* models only)`;
  }
  return OPENAI_MODELS.test(model)
    ? null
    : `model ${model} does not fit provider ${p.id} (OpenAI's own endpoint serves gpt-*, chatgpt-*, o1/o3/o4-*, codex-* models only)`;
}

/** The same rule as a boolean, for callers that only ask. */
export const modelFits = (p: ProviderShape, model: string): boolean => modelMismatch(p, model) === null;
