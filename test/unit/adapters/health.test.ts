import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { healthAction, probeHealth } from '../../../actors/adapters/kit/health.ts';
import { ProjectsActions } from '../../../contracts/actions/projects.actions.ts';
import { ComponentHealthSchema } from '../../../contracts/health.ts';
import { startActors } from '../../support/actors.ts';

/** The one `health` action of the stateful actors (ISSUE 13 point 6): a timed probe reported as SPEC "Component health". */
describe('probeHealth', () => {
  it('is healthy with message null when the probe answers', async () => {
    const h = await probeHealth('projects', async () => undefined);
    expect(ComponentHealthSchema.parse(h)).toEqual({
      name: 'projects',
      status: 'healthy',
      latency_ms: h.latency_ms,
      message: null,
    });
    expect(h.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('is unhealthy with the error in the message when the probe throws, and never throws itself', async () => {
    const h = await probeHealth('twin', async () => {
      throw new Error('connection refused');
    });
    expect(h).toMatchObject({ name: 'twin', status: 'unhealthy', message: 'Error: connection refused' });
    const named = await probeHealth(
      'memory',
      () => Promise.reject(new Error('timeout')),
      (err) => `the sessions actor does not answer: ${(err as Error).message}`,
    );
    expect(named.message).toBe('the sessions actor does not answer: timeout');
  });

  it('reports what the probe found when it is not simply healthy', async () => {
    const h = await probeHealth('memory', async () => ({
      status: 'degraded',
      message: 'the sessions actor is degraded',
    }));
    expect(h).toMatchObject({ name: 'memory', status: 'degraded', message: 'the sessions actor is degraded' });
  });
});

describe('healthAction', () => {
  let up = true;
  let h: BrokerHandle;
  beforeAll(async () => {
    h = await startActors([
      () => ({
        name: 'projects',
        actions: {
          health: healthAction(ProjectsActions.health, 'projects', async () => {
            if (!up) throw new Error('the database is down');
          }),
        },
      }),
    ]);
  });
  afterAll(async () => {
    await h.broker.stop();
  });

  it('answers the contract action on the bus with the probe result', async () => {
    up = true;
    expect(await call(h.broker, ProjectsActions.health, {})).toMatchObject({
      name: 'projects',
      status: 'healthy',
      message: null,
    });
    up = false;
    expect(await call(h.broker, ProjectsActions.health, {})).toMatchObject({
      name: 'projects',
      status: 'unhealthy',
      message: 'Error: the database is down',
    });
  });
});
