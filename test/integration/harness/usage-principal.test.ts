import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callModel } from '../../../actors/harness/calls/index.ts';
import { callPrincipalOf } from '../../../actors/runs/run.view.ts';
import { call } from '../../../brokers/actions.ts';
import { HarnessUsageActions as H } from '../../../contracts/actions/harness-usage.actions.ts';
import { startAnthropicServer } from '../../support/llm-servers/anthropic.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

/**
 * Decision 0113 amended: the harness call ledger names the principal a call was made for. A run's model call carries
 * the run's started_by (callPrincipalOf its start request, as the phase brain sends it); the usage summary filters by
 * subject. The call goes to a local server speaking Anthropic's protocol and is recorded through the ledger action.
 */
let t: TestNode;
let server: WireServer;
beforeAll(async () => {
  server = await startAnthropicServer({ apiKey: 'k' });
  t = await startTestNode({ roles: 'gateway,harness,runs' });
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await server?.close();
});

const summary = async (q: string) => {
  const res = await fetch(`${t.url}/v1/runs/usage/summary?window_hours=24${q}`);
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

/** One scripted model call for a run whose start request is `request`, recorded in the ledger. */
async function callFor(request: Record<string, unknown>, run_id: string) {
  server.enqueue({ text: ['ok'], usage: { prompt_tokens: 100, completion_tokens: 5, cached_tokens: 0 } });
  const out = await callModel(
    {
      provider: { family: 'anthropic', baseURL: server.url, apiKey: 'k' },
      model: 'claude-haiku-5-5',
      messages: [{ role: 'user', content: 'design it' }],
    },
    { provider: 'anthropic', role: 'phase_brain', phase: 'design', run_id, principal: callPrincipalOf(request) },
    { record: async (r) => void (await call(t.node.broker, H.recordCall, r)), now: () => new Date() },
  );
  expect(out.ok).toBe(true);
  return out.record;
}

const STARTED_BY_B = { subject: 'person-b', client_id: 'dash-app', kind: 'person', verified: true, surface: 'http' };

describe('the usage ledger names the principal', () => {
  it("a run's model call carries who started the run; the summary filters by subject", async () => {
    const rec = await callFor({ goal: 'g', started_by: STARTED_BY_B, started_via: 'http' }, 'run-b');
    expect(rec).toMatchObject({ run_id: 'run-b', principal_subject: 'person-b', principal_client_id: 'dash-app' });
    await callFor({ goal: 'g', started_by: null, started_via: 'http' }, 'run-anon');

    const all = await summary('');
    expect(all.status).toBe(200);
    expect(all.json.usage.calls).toBe(2);
    const b = await summary('&subject=person-b');
    expect(b.json).toMatchObject({ subject: 'person-b', usage: { calls: 1, tokens: { prompt: 100, completion: 5 } } });
    expect((await summary('&subject=someone-else')).json.usage.calls).toBe(0);
  });

  it('hostile: a start request whose started_by is not the recorded shape names no one; a bad subject filter is 422', async () => {
    expect(callPrincipalOf({ started_by: { subject: '' } })).toBeNull();
    expect(callPrincipalOf({ started_by: 'mallory' })).toBeNull();
    expect(callPrincipalOf({})).toBeNull();
    for (const q of ['&subject=', `&subject=${'x'.repeat(501)}`]) {
      const r = await summary(q);
      expect(r.status, q).toBe(422);
      expect(r.json.error.code).toBe('VALIDATION_FAILED');
    }
  });
});
