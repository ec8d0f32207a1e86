export { createCadSessionsService } from './cadsessions.service.ts';
export { createCadSessionStore, type CadSessionStore } from './cadsessions.store.ts';
export { createSessionRunner, type SessionRunner } from './session-runner.ts';
