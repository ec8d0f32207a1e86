import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { startLoggedNode, type LoggedNode } from './egress-support.ts';

// Issue 27, finding 11: model names set through the selection route became label values of the harness's metrics
// without bound (300 names, 300 more label values on /metrics). Here the bound is 10 and a client sets 30 models,
// each served by a chat turn: the metrics keep 10 model values and count the rest under `other`.

const BOUND = 10;
const MODELS = Array.from({ length: 3 * BOUND }, (_, i) => `caller-model-${i}`);

let t: LoggedNode;
let model: WireServer;

beforeAll(async () => {
  model = (await startOpenAIServer()).always({ text: ['ok'], usage: { prompt_tokens: 5, completion_tokens: 1 } });
  t = await startLoggedNode({
    SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1',
    SERVICE_HARNESS_MAX_LABEL_VALUES: String(BOUND),
  });
  const cred = { provider: 'local-llm', api_key: 'sk-label-test-0123456789', base_url: model.url };
  expect((await t.http('POST', '/v1/harness/credentials', cred)).status).toBe(201);
});
afterAll(async () => {
  await model?.close();
  await t?.stop();
});

/** The distinct values of `label` among the samples of `metric` on the gateway's /metrics. */
async function labelValues(metric: string, label: string): Promise<Set<string>> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  const re = new RegExp(`^${metric}\\{[^}]*\\b${label}="([^"]*)"`, 'gm');
  return new Set([...text.matchAll(re)].map((m) => m[1]!));
}

describe('metric label values from callers are bounded', () => {
  it('30 selected models: at most the bound of model values, the rest under other', async () => {
    for (const m of MODELS) {
      const sel = await t.http('PUT', '/v1/harness/selection', { provider: 'local-llm', model: m });
      expect(sel.status).toBe(200);
      expect((await t.chatTurn(`hello ${m}`)).at(-1)?.data.status).toBe('done');
    }
    expect(model.requests.map((r) => r.body.model)).toEqual(MODELS); // every model was really called
    const models = await labelValues('service_llm_calls_total', 'model');
    expect(models.size).toBeLessThanOrEqual(BOUND + 1);
    expect(models).toContain('other');
    const tokens = await labelValues('service_llm_tokens_total', 'model');
    expect(tokens.size).toBeLessThanOrEqual(BOUND + 1);
  });
});
