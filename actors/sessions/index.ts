export { createSessionsService } from './sessions.service.ts';
export { createSessionStore, type SessionStore } from './sessions.store.ts';
export { decide, initial, type SessionCommand, type SessionEffect, type SessionState } from './sessions.machine.ts';
