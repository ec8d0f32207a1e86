export { createSessionAdapter } from './session.adapter.ts';
export { actorCall, requireProject } from '../kit/actor-call.ts';
