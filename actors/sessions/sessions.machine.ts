import type { SessionEventKind, SessionStatus } from '../../contracts/sessions.ts';

/**
 * Decisions of one agent session (STYLE R3, R4): pure, no I/O, time comes in through `env`.
 * A session takes events while active; `complete` closes it once; everything else is a refusal naming the session.
 */

/** What the decisions need to know about a session; undefined means there is no such session. */
export interface SessionState {
  status: SessionStatus;
  event_count: number;
}

/** The state of a session that was just started. */
export const initial: SessionState = { status: 'active', event_count: 0 };

/** A command on an existing session. */
export type SessionCommand =
  | { type: 'log_event'; kind: SessionEventKind; message: string; data: Record<string, unknown> }
  | { type: 'complete'; summary: string };

/** Inputs from outside the machine. */
export interface SessionEnv {
  now: Date;
}

/** What the store must persist, in order, in the command's transaction. */
export type SessionEffect =
  | {
      type: 'append_event';
      seq: number;
      kind: SessionEventKind;
      message: string;
      data: Record<string, unknown>;
      at: Date;
    }
  | { type: 'close'; summary: string; at: Date };

/** Why a command was refused; the message names the session. */
export interface SessionRefusal {
  code: 'unknown_session' | 'session_completed';
  message: string;
}

/** Either the next state and its effects, or a refusal. */
export type SessionDecision =
  { ok: true; state: SessionState; effects: SessionEffect[] } | { ok: false; refusal: SessionRefusal };

/** Decides `cmd` on session `id` whose current state is `state` (undefined: unknown session). */
export function decide(
  id: string,
  state: SessionState | undefined,
  cmd: SessionCommand,
  env: SessionEnv,
): SessionDecision {
  if (!state) return { ok: false, refusal: { code: 'unknown_session', message: `session ${id} not found` } };
  if (state.status === 'completed') {
    const what = cmd.type === 'complete' ? 'cannot be completed again' : 'takes no more events';
    return {
      ok: false,
      refusal: { code: 'session_completed', message: `session ${id} is already completed and ${what}` },
    };
  }
  if (cmd.type === 'log_event') {
    const seq = state.event_count + 1;
    return {
      ok: true,
      state: { ...state, event_count: seq },
      effects: [{ type: 'append_event', seq, kind: cmd.kind, message: cmd.message, data: cmd.data, at: env.now }],
    };
  }
  return {
    ok: true,
    state: { ...state, status: 'completed' },
    effects: [{ type: 'close', summary: cmd.summary, at: env.now }],
  };
}
