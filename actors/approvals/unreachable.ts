import { ActorError } from '../../brokers/errors.ts';

/** Moleculer's own errors that mean the owning actor could not be reached (or did not answer): nothing came back. */
const UNREACHABLE = new Set([
  'SERVICE_NOT_FOUND',
  'SERVICE_NOT_AVAILABLE',
  'REQUEST_REJECTED',
  'REQUEST_TIMEOUT',
  'REQUEST_SKIPPED',
  'QUEUE_FULL',
  'BROKER_NOT_STARTED',
  'INVALID_ENDPOINT',
]);

/** True when a call failed because its actor was not reachable, as opposed to an answer (ActorError) from it. */
export function unreachable(err: unknown): boolean {
  return !(err instanceof ActorError) && UNREACHABLE.has(String((err as { type?: string })?.type ?? ''));
}

/** The runs actor's answer that the node asked does not hold the run now (its ownership moved): send it again. */
export const notOwner = (err: unknown) =>
  err instanceof ActorError && err.type === 'SERVICE_UNAVAILABLE' && /is not held by this node/.test(err.message);
