import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ActorError } from '../../../brokers/errors.ts';
import { createRedactor, REDACTED, redactingActions, redactingLogger } from '../../../actors/harness/redact.ts';

// The harness's one redactor (issue 27, finding 8): stored keys anywhere, and the shapes of secrets.

describe('the harness redactor', () => {
  const r = createRedactor();
  r.add('plain-key-ABCDEFGH');
  r.add('abc'); // too short to remove as a word: left to the shapes

  it.each([
    ['Authorization: Bearer tok.en-123/xyz=', `Authorization: Bearer ${REDACTED}`],
    ['basic dXNlcjpwYXNz rest', `basic ${REDACTED} rest`],
    ['{"x-api-key": "k-1234567890"}', `{"x-api-key": "${REDACTED}"}`],
    ['api_key=zzzzzzzz&x=1', `api_key=${REDACTED}&x=1`],
    ['key sk-ant-api03-ABCDEFGHIJ was refused', `key ${REDACTED} was refused`],
    ['echo: plain-key-ABCDEFGH!plain-key-ABCDEFGH', `echo: ${REDACTED}!${REDACTED}`],
    ['an abc word stays', 'an abc word stays'],
  ])('%s', (input, want) => expect(r.text(input)).toBe(want));

  it('walks log objects and errors', () => {
    const err = new Error('denied for plain-key-ABCDEFGH', { cause: new Error('Bearer xyz') });
    const v = r.value({ a: ['plain-key-ABCDEFGH'], err, n: 3 }) as Record<string, any>;
    expect(JSON.stringify(v)).not.toContain('plain-key-ABCDEFGH');
    expect(JSON.stringify(v)).not.toContain('xyz');
    expect(v.n).toBe(3);
    expect(v.err).toMatchObject({ type: 'Error', message: `denied for ${REDACTED}` });
  });

  it('a redacting logger and its children write no key', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (c, _e, done) => (lines.push(String(c)), done()) });
    const log = redactingLogger(pino({ level: 'debug' }, sink), r);
    log.warn({ failure: { message: 'echo plain-key-ABCDEFGH' } }, 'llm call failed');
    log.child({ part: 'x' }).error(new Error('Bearer sk-proj-0123456789'));
    log.info('message with plain-key-ABCDEFGH');
    expect(lines).toHaveLength(3);
    expect(lines.join('')).not.toMatch(/plain-key-ABCDEFGH|sk-proj-0123456789/);
    expect(lines[1]).toContain('"part":"x"');
  });

  it('an error thrown out of an action is redacted, its class and code kept', async () => {
    const actions = redactingActions(
      {
        boom: {
          handler: () => {
            throw new ActorError('CONFLICT', 'refused plain-key-ABCDEFGH', { echo: 'Bearer abcdef' });
          },
        },
      },
      r,
    );
    const err = (await (actions.boom.handler as () => Promise<unknown>)().catch((e: unknown) => e)) as ActorError;
    expect(err).toBeInstanceOf(ActorError);
    expect(err.type).toBe('CONFLICT');
    expect(err.message).toBe(`refused ${REDACTED}`);
    expect(err.data).toEqual({ echo: `Bearer ${REDACTED}` });
  });
});
