import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complete, HarnessCallError, type CompleteRequest } from '../../../actors/harness/calls/index.ts';
import type { HarnessCallFailure } from '../../../contracts/harness-calls.ts';
import { ASK, FAMILY_CASES, KEY, provider, WEATHER } from '../../support/llm-servers/families.ts';
import type { ScriptedReply, WireServer } from '../../support/llm-servers/wire-server.ts';

/** Runs one call and returns its classified failure (the test fails when the call succeeds or throws raw). */
async function failure(req: CompleteRequest): Promise<HarnessCallFailure> {
  const err = await complete(req).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HarnessCallError);
  return (err as HarnessCallError).failure;
}

/** Each provider fault, on each family, gets its class; nothing escapes as a raw SDK error. */
describe.each(FAMILY_CASES)('$family family: faults', (c) => {
  let server: WireServer;
  beforeAll(async () => {
    server = await c.start({ apiKey: KEY });
  });
  afterAll(() => server.close());

  const call = (reply: ScriptedReply, extra: Partial<CompleteRequest> = {}) => {
    server.enqueue(reply);
    return failure({ provider: provider(c, server), model: c.model, messages: ASK, tools: [WEATHER], ...extra });
  };

  it('401 (a wrong key): environment, the credential is dead', async () => {
    const f = await failure({ provider: provider(c, server, { apiKey: 'sk-wrong' }), model: c.model, messages: ASK });
    expect(f).toMatchObject({ class: 'environment', status: 401, retryable: false, credential_dead: true });
    expect(f.message).not.toContain('sk-wrong');
  });

  it('403: environment, the credential is dead', async () => {
    const f = await call({ fault: { status: 403, type: 'permission_error', message: 'not allowed' } });
    expect(f).toMatchObject({ class: 'environment', status: 403, credential_dead: true });
  });

  it('429 with retry-after: transient, rotate the credential, wait as told', async () => {
    const f = await call({ fault: { status: 429, type: 'rate_limit_error', message: 'slow down', retryAfter: '7' } });
    expect(f).toMatchObject({
      class: 'transient',
      status: 429,
      retryable: true,
      rotate_credential: true,
      retry_after_ms: 7000,
    });
  });

  it('500 and 529: transient', async () => {
    expect(await call({ fault: { status: 500 } })).toMatchObject({ class: 'transient', status: 500, retryable: true });
    const f = await call({ fault: { status: 529, type: 'overloaded_error', message: 'Overloaded' } });
    expect(f).toMatchObject({ class: 'transient', status: 529 });
  });

  it('a model the endpoint does not serve (404, or 400 unsupported): capability', async () => {
    const missing = await call({
      fault: { status: 404, type: 'not_found_error', code: 'model_not_found', message: 'model: nope' },
    });
    expect(missing).toMatchObject({ class: 'capability', status: 404, retryable: false });
    const unsupported = await call({
      fault: {
        status: 400,
        type: 'invalid_request_error',
        message: 'The model nope is not supported for this endpoint',
      },
    });
    expect(unsupported).toMatchObject({ class: 'capability', status: 400 });
  });

  it('another 400: unknown', async () => {
    const f = await call({
      fault: { status: 400, type: 'invalid_request_error', message: 'messages: field required' },
    });
    expect(f).toMatchObject({ class: 'unknown', status: 400, retryable: false });
  });

  it('a stream that ends before its end: data, retryable', async () => {
    const f = await call({ text: ['half a'], fault: 'truncate' });
    expect(f).toMatchObject({ class: 'data', retryable: true });
    expect(f.message).toMatch(/truncated/);
  });

  it('a connection reset mid-stream: transient', async () => {
    expect(await call({ text: ['half a'], fault: 'reset' })).toMatchObject({ class: 'transient', retryable: true });
  });

  it('a chunk that is not JSON: data', async () => {
    expect(await call({ fault: 'malformed_chunk' })).toMatchObject({ class: 'data', retryable: false });
  });

  it('malformed tool-call JSON: data, naming the tool', async () => {
    const f = await call({ toolCalls: [{ id: 'call_x', name: 'get_weather', args: ['{"city": "Os'] }] });
    expect(f).toMatchObject({ class: 'data' });
    expect(f.message).toContain('get_weather');
  });

  it('a tool the request did not offer: reasoning', async () => {
    const f = await call({ toolCalls: [{ id: 'call_y', name: 'delete_everything', args: ['{}'] }] });
    expect(f).toMatchObject({ class: 'reasoning', retryable: false });
    expect(f.message).toContain('delete_everything');
  });

  it('no response headers within the timeout: transient', async () => {
    const f = await call({ fault: 'hang' }, { provider: provider(c, server, { timeoutMs: 50 }) });
    expect(f).toMatchObject({ class: 'transient', retryable: true });
  });

  it('a stream that goes silent past the idle timeout: transient', async () => {
    const f = await call({ fault: 'hang_mid_stream' }, { provider: provider(c, server, { idleTimeoutMs: 50 }) });
    expect(f).toMatchObject({ class: 'transient', retryable: true });
    expect(f.message).toMatch(/mid-stream/);
  });

  it('a call its caller cancels: unknown, not retried', async () => {
    const ctl = new AbortController();
    const seen = server.requests.length;
    const pending = call({ fault: 'hang' }, { signal: ctl.signal });
    await server.received(seen + 1);
    ctl.abort();
    expect(await pending).toMatchObject({
      class: 'unknown',
      retryable: false,
      message: expect.stringMatching(/cancelled/),
    });
  });
});

describe('refused before any request', () => {
  it('a first-party endpoint without a key: environment', async () => {
    for (const family of ['openai_compatible', 'anthropic'] as const) {
      const f = await failure({ provider: { family }, model: 'gpt-5', messages: ASK });
      expect(f).toMatchObject({ class: 'environment', retryable: false });
    }
  });

  it('an endpoint nobody listens on: transient', async () => {
    const server = await FAMILY_CASES[0]!.start({});
    const url = server.url;
    await server.close();
    const f = await failure({ provider: { family: 'openai_compatible', baseURL: url }, model: 'm', messages: ASK });
    expect(f).toMatchObject({ class: 'transient', retryable: true });
  });
});
