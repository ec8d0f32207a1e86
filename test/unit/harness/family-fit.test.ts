import { describe, expect, it } from 'vitest';
import { isFirstParty, modelFits } from '../../../actors/harness/calls/index.ts';

/** Spec rule 10: a first-party family serves only its vendor's models; a gateway at a custom base URL is never judged. */
describe('modelFits', () => {
  it.each(['gpt-4o', 'gpt-5-mini', 'o1', 'o3-mini', 'o4-mini', 'chatgpt-4o-latest', 'ft:gpt-4o-mini:acme::abc'])(
    'OpenAI at its own endpoint serves %s',
    (model) => {
      expect(modelFits('openai_compatible', undefined, model)).toEqual({ ok: true });
      expect(modelFits('openai_compatible', 'https://api.openai.com/v1/', model)).toEqual({ ok: true });
    },
  );

  it.each(['claude-sonnet-5-5', 'llama3.1:8b', 'mistral-large', 'o1x', 'gemini-2.5-pro'])(
    'OpenAI at its own endpoint refuses %s with a reason',
    (model) => {
      const fit = modelFits('openai_compatible', undefined, model);
      expect(fit.ok).toBe(false);
      expect(!fit.ok && fit.reason).toContain(model);
    },
  );

  it('Anthropic serves claude-* only', () => {
    expect(modelFits('anthropic', undefined, 'claude-opus-5-5')).toEqual({ ok: true });
    expect(modelFits('anthropic', 'https://api.anthropic.com/v1', 'claude-3-5-haiku-20241022')).toEqual({ ok: true });
    expect(modelFits('anthropic', undefined, 'gpt-4o')).toMatchObject({ ok: false });
  });

  it.each(['http://localhost:11434/v1', 'https://openrouter.ai/api/v1', 'http://127.0.0.1:8000/v1'])(
    'an OpenAI-compatible gateway at %s is never judged',
    (url) => {
      for (const model of ['claude-sonnet-5-5', 'llama3.1:8b', 'gpt-4o', 'anything/at:all']) {
        expect(modelFits('openai_compatible', url, model)).toEqual({ ok: true });
      }
    },
  );

  it('an empty model never fits', () => {
    expect(modelFits('openai_compatible', 'http://localhost:11434/v1', ' ')).toMatchObject({ ok: false });
  });

  it('tells first-party endpoints apart', () => {
    expect(isFirstParty('openai_compatible', 'https://API.openai.com/v1')).toBe(true);
    expect(isFirstParty('openai_compatible', 'https://api.openai.com.evil.example/v1')).toBe(false);
    expect(isFirstParty('anthropic', 'https://api.anthropic.com')).toBe(true);
    expect(isFirstParty('anthropic', 'https://proxy.example/anthropic')).toBe(false);
  });
});
