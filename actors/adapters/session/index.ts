export { createSessionAdapter } from './session.adapter.ts';
export { actorCall, requireProject } from './actor-call.ts';
