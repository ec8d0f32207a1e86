import { describe, expect, it } from 'vitest';
import { decide, initial } from '../../actors/sessions/sessions.machine.ts';

const env = { now: new Date('2026-01-02T03:04:05Z') };
const log = { type: 'log_event' as const, kind: 'note' as const, message: 'm', data: {} };

describe('session machine', () => {
  it('numbers events from 1 and closes once', () => {
    const first = decide('s1', initial, log, env);
    expect(first).toEqual({
      ok: true,
      state: { status: 'active', event_count: 1 },
      effects: [{ type: 'append_event', seq: 1, kind: 'note', message: 'm', data: {}, at: env.now }],
    });
    const closed = decide('s1', { status: 'active', event_count: 1 }, { type: 'complete', summary: 'done' }, env);
    expect(closed).toEqual({
      ok: true,
      state: { status: 'completed', event_count: 1 },
      effects: [{ type: 'close', summary: 'done', at: env.now }],
    });
  });

  it('refuses unknown and completed sessions, naming them', () => {
    expect(decide('ghost', undefined, log, env)).toEqual({
      ok: false,
      refusal: { code: 'unknown_session', message: 'session ghost not found' },
    });
    const done = { status: 'completed' as const, event_count: 3 };
    expect(decide('s2', done, log, env)).toMatchObject({
      ok: false,
      refusal: { code: 'session_completed', message: 'session s2 is already completed and takes no more events' },
    });
    expect(decide('s2', done, { type: 'complete', summary: 'x' }, env)).toMatchObject({
      ok: false,
      refusal: { message: 'session s2 is already completed and cannot be completed again' },
    });
  });
});
