import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { SessionListSchema, SessionWithEventsSchema } from '../../../contracts/sessions.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(async () => {
  await t.stop();
});

/** Runs a session tool through the adapter, as the tool server would. */
async function tool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = (await t.node.broker.call('adapters.session.invoke', {
    tool_id: `session.${name}`,
    arguments: args,
    call_id: crypto.randomUUID(),
    timeout_ms: 10_000,
    caller: { kind: 'stdio', transport: 'stdio' },
  })) as { status: string; data: Record<string, unknown> };
  expect(r.status).toBe('success');
  return r.data;
}

describe('captured agent sessions over HTTP', () => {
  it('lists sessions newest first, by project, paged, and reads one with its events', async () => {
    const project = (await (
      await fetch(`${t.url}/v1/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Pump' }),
      })
    ).json()) as { id: string };
    const older = await tool('start', { title: 'impeller sizing', project_id: project.id });
    await tool('log_event', { session_id: older.id, kind: 'decision', message: 'five blades', data: { blades: 5 } });
    await tool('log_event', { session_id: older.id, kind: 'lesson', message: 'cavitation starts at 3000 rpm' });
    await tool('complete', { session_id: older.id, summary: 'impeller sized' });
    const newer = await tool('start', { title: 'seal selection', project_id: project.id });
    await tool('start', { title: 'unrelated' });

    const res = await fetch(`${t.url}/v1/sessions?project_id=${project.id}`);
    expect(res.status).toBe(200);
    const list = SessionListSchema.parse(await res.json());
    expect(list.total).toBe(2);
    expect(list.sessions.map((s) => s.id)).toEqual([newer.id, older.id]);
    expect(list.sessions[1]).toMatchObject({ status: 'completed', summary: 'impeller sized', event_count: 2 });

    const paged = SessionListSchema.parse(
      await (await fetch(`${t.url}/v1/sessions?project_id=${project.id}&limit=1&offset=1`)).json(),
    );
    expect(paged).toMatchObject({ total: 2, sessions: [{ id: older.id }] });
    const everything = SessionListSchema.parse(await (await fetch(`${t.url}/v1/sessions`)).json());
    expect(everything.total).toBeGreaterThanOrEqual(3);

    const one = await fetch(`${t.url}/v1/sessions/${older.id}`);
    expect(one.status).toBe(200);
    const session = SessionWithEventsSchema.parse(await one.json());
    expect(session).toMatchObject({
      id: older.id,
      title: 'impeller sizing',
      project_id: project.id,
      status: 'completed',
    });
    expect(session.events.map((e) => [e.seq, e.kind, e.message, e.data])).toEqual([
      [1, 'decision', 'five blades', { blades: 5 }],
      [2, 'lesson', 'cavitation starts at 3000 rpm', {}],
    ]);
  });

  it('answers an unknown session with 404 and the error body', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      const res = await fetch(`${t.url}/v1/sessions/${id}`);
      expect(res.status).toBe(404);
      const body = ErrorBodySchema.parse(await res.json());
      expect(body.error.code).toBe('NOT_FOUND');
      expect(body.error.message).toContain(id);
    }
  });

  it('answers a bad paging parameter with 422', async () => {
    const res = await fetch(`${t.url}/v1/sessions?limit=0`);
    expect(res.status).toBe(422);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('VALIDATION_FAILED');
  });
});
