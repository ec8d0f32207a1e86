import type { ProviderFamily } from '../../../contracts/harness.ts';

/** The first-party endpoints: a family at one of these serves only its own vendor's models (spec rule 10). */
export const FIRST_PARTY_BASE_URL: Record<ProviderFamily, string> = {
  openai_compatible: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

/**
 * OpenAI's model names (chat, reasoning, open-weight and realtime families, fine-tunes `ft:<base>:...`).
 * A model outside these is another vendor's and cannot be served at api.openai.com.
 */
const OPENAI_MODEL = /^(ft:)?(gpt-|chatgpt-|o[1-9](-|$)|codex-|computer-use-|davinci|babbage|text-|omni-)/;
/** Anthropic's model names: every Claude model, dated or aliased (`claude-sonnet-4-5`, `claude-3-5-haiku-20241022`). */
const ANTHROPIC_MODEL = /^claude-/;

function normalise(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

/** True when the base URL is the family's first-party endpoint (absent = the SDK's default, which is first-party). */
export function isFirstParty(family: ProviderFamily, baseURL: string | undefined): boolean {
  if (baseURL === undefined || baseURL === '') return true;
  const u = normalise(baseURL);
  const own = normalise(FIRST_PARTY_BASE_URL[family]);
  // api.anthropic.com is reached with or without a trailing /v1 in client configuration.
  return u === own || (family === 'anthropic' && u === `${own}/v1`);
}

/**
 * Whether a family at a base URL can serve a model, judged at configuration time (spec rule 10): a first-party
 * endpoint serves only its vendor's models; an OpenAI-compatible endpoint at any other base URL is a multi-vendor
 * gateway or a local server (Ollama, vLLM, LM Studio) and is never judged. An Anthropic-family endpoint elsewhere
 * (a proxy speaking the messages API) is not judged either: it may front any model.
 */
export function modelFits(
  family: ProviderFamily,
  baseURL: string | undefined,
  model: string,
): { ok: true } | { ok: false; reason: string } {
  if (model.trim() === '') return { ok: false, reason: 'no model named' };
  if (!isFirstParty(family, baseURL)) return { ok: true };
  if (family === 'openai_compatible') {
    return OPENAI_MODEL.test(model)
      ? { ok: true }
      : {
          ok: false,
          reason: `${model} is not an OpenAI model; api.openai.com serves only OpenAI models (gpt-*, o1/o3/o4*, chatgpt-*); set a base URL to use a gateway`,
        };
  }
  return ANTHROPIC_MODEL.test(model)
    ? { ok: true }
    : { ok: false, reason: `${model} is not an Anthropic model; the Anthropic family serves only claude-* models` };
}
