import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyError, HarnessCallError } from '../../../actors/harness/calls/index.ts';
import { checkOffered, parseToolArguments } from '../../../actors/harness/calls/tool-calls.ts';

const headers = (h: Record<string, string> = {}) => new Headers(h);

/** The classification table of issue 15 ("Bad input and faults"), on both SDKs' own error objects. */
describe('classifyError', () => {
  it.each([
    [401, 'environment'],
    [403, 'environment'],
    [429, 'transient'],
    [408, 'transient'],
    [500, 'transient'],
    [503, 'transient'],
    [529, 'transient'],
    [404, 'capability'],
    [422, 'unknown'],
  ] as const)('HTTP %i is %s on both SDKs', (status, cls) => {
    const body = { error: { type: 'x', message: 'refused' } };
    expect(classifyError(OpenAI.APIError.generate(status, body, undefined, headers())).class).toBe(cls);
    expect(classifyError(Anthropic.APIError.generate(status, body, undefined, headers())).class).toBe(cls);
  });

  it('reads retry-after in seconds, as a date and as retry-after-ms', () => {
    const gen = (h: Record<string, string>) => classifyError(OpenAI.APIError.generate(429, {}, undefined, headers(h)));
    expect(gen({ 'retry-after': '3' }).failure.retry_after_ms).toBe(3000);
    expect(gen({ 'retry-after-ms': '250' }).failure.retry_after_ms).toBe(250);
    const later = new Date(Date.now() + 60_000).toUTCString();
    expect(gen({ 'retry-after': later }).failure.retry_after_ms).toBeGreaterThan(0);
  });

  it("OpenAI's insufficient_quota 429 is environment (no wait cures it) but still rotates", () => {
    const body = {
      error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your quota' },
    };
    const f = classifyError(OpenAI.APIError.generate(429, body, undefined, headers())).failure;
    expect(f).toMatchObject({ class: 'environment', retryable: false, rotate_credential: true });
  });

  it('a 400 naming the model or an unsupported feature is capability; context length too', () => {
    const gen = (message: string, code?: string) =>
      classifyError(
        OpenAI.APIError.generate(
          400,
          { error: { message, code, type: 'invalid_request_error' } },
          undefined,
          headers(),
        ),
      );
    expect(gen('The model `foo` does not exist', 'model_not_found').class).toBe('capability');
    expect(gen('too long', 'context_length_exceeded').class).toBe('capability');
    expect(gen("'messages' must contain the word 'json'").class).toBe('unknown');
  });

  it('an error event inside a stream: its type decides', () => {
    const overloaded = new Anthropic.APIError(
      undefined,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      undefined,
      headers(),
      'overloaded_error',
    );
    expect(classifyError(overloaded).failure).toMatchObject({ class: 'transient', retryable: true });
    const odd = new OpenAI.APIError(undefined, { message: 'odd', type: 'invalid_request_error' }, undefined, headers());
    expect(classifyError(odd).class).toBe('unknown');
  });

  it('timeouts and connection errors are transient; a caller abort is not retried', () => {
    expect(classifyError(new OpenAI.APIConnectionTimeoutError()).class).toBe('transient');
    expect(classifyError(new Anthropic.APIConnectionError({ message: 'ECONNREFUSED' })).class).toBe('transient');
    expect(classifyError(new OpenAI.APIUserAbortError()).failure).toMatchObject({ class: 'unknown', retryable: false });
  });

  it('a broken chunk is data; a cut socket is transient; anything else unknown', () => {
    expect(classifyError(new SyntaxError('Unexpected end of JSON input')).class).toBe('data');
    expect(classifyError(new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } })).class).toBe('transient');
    expect(classifyError(new Error('weird')).failure).toMatchObject({
      class: 'unknown',
      message: 'model call failed: weird',
    });
    expect(classifyError('a string').class).toBe('unknown');
  });

  it('keeps an already classified error as it is', () => {
    const e = HarnessCallError.of('reasoning', 'x');
    expect(classifyError(e)).toBe(e);
  });
});

describe('tool calls', () => {
  it('parses assembled arguments to an object; empty is no arguments', () => {
    expect(parseToolArguments('t', '{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments('t', '  ')).toEqual({});
  });

  it.each(['{"a":', '[1,2]', '"text"', 'null'])('refuses %s as data', (json) => {
    expect(() => parseToolArguments('t', json)).toThrow(HarnessCallError);
    try {
      parseToolArguments('t', json);
    } catch (e) {
      expect((e as HarnessCallError).class).toBe('data');
    }
  });

  it('refuses a call to a tool that was not offered as reasoning, naming it', () => {
    const offered = [{ name: 'a', description: '', input_schema: {} }];
    expect(() => checkOffered([{ id: '1', name: 'a', arguments: {} }], offered)).not.toThrow();
    expect(() => checkOffered([{ id: '1', name: 'b', arguments: {} }], offered)).toThrow(/not offered: b/);
    expect(() => checkOffered([{ id: '1', name: 'b', arguments: {} }], [])).toThrow(/no tools were offered/);
  });
});
