import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolResultSchema, type ToolResult } from '../../../contracts/tool-result.ts';
import { SessionsActions } from '../../../contracts/actions/sessions.actions.ts';
import { AgentSessionSchema, SessionEventSchema } from '../../../contracts/sessions.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { invokeViaRegistry } from '../../support/tools.ts';
import { dbBackends, type TestDatabase } from '../../support/pg.ts';

const backends = dbBackends('sess');

for (const backend of backends) {
  describe.runIf(backend.enabled)(`session adapter on ${backend.name}`, () => {
    let t: TestNode;
    let db: TestDatabase | undefined;
    beforeAll(async () => {
      db = await backend.database();
      t = await startTestNode({
        roles: 'projects,sessions,tools,adapter:session',
        env: db ? { SERVICE_DATABASE_URL: db.url } : {},
      });
    });
    afterAll(async () => {
      await t?.stop();
      await db?.drop();
    });

    // Through the registry: arguments are validated there, once (ISSUE 13 point 3), not by the adapter.
    const invoke = async (
      tool: string,
      args: Record<string, unknown>,
      caller: Record<string, unknown> = {},
    ): Promise<ToolResult> =>
      ToolResultSchema.parse(await invokeViaRegistry(t.node.broker, `session.${tool}`, args, caller));
    const ok = async (tool: string, args: Record<string, unknown>, caller?: Record<string, unknown>) => {
      const r = await invoke(tool, args, caller);
      if (r.status !== 'success') throw new Error(`${tool} failed: ${JSON.stringify(r.error)}`);
      return r.data;
    };

    it('starts a session, numbers its events and completes it with a summary', async () => {
      const session = AgentSessionSchema.parse(await ok('start', { title: 'Bracket sizing', client: 'claude-code' }));
      expect(session).toMatchObject({
        title: 'Bracket sizing',
        client: 'claude-code',
        status: 'active',
        summary: null,
        project_id: null,
        event_count: 0,
      });
      expect(session.id).toMatch(/^[0-9a-f-]{36}$/);

      const first = SessionEventSchema.parse(
        await ok('log_event', { session_id: session.id, message: 'read the load case' }),
      );
      expect(first).toMatchObject({ session_id: session.id, seq: 1, kind: 'note', data: {} });
      const second = await ok('log_event', {
        session_id: session.id,
        kind: 'decision',
        message: 'use 6061-T6',
        data: { why: 'weight' },
      });
      expect(second).toMatchObject({ seq: 2, kind: 'decision', data: { why: 'weight' } });

      const done = AgentSessionSchema.parse(
        await ok('complete', { session_id: session.id, summary: 'sized the bracket at 4 mm' }),
      );
      expect(done).toMatchObject({
        id: session.id,
        status: 'completed',
        summary: 'sized the bracket at 4 mm',
        event_count: 2,
      });
      expect(Date.parse(done.completed_at!)).toBeGreaterThanOrEqual(Date.parse(done.started_at));

      const stored = await t.node.broker.call(SessionsActions.get.action, { id: session.id });
      expect((stored as { events: { seq: number; message: string }[] }).events.map((e) => [e.seq, e.message])).toEqual([
        [1, 'read the load case'],
        [2, 'use 6061-T6'],
      ]);
    });

    it('gives concurrent events consecutive sequence numbers without gaps', async () => {
      const { id } = AgentSessionSchema.parse(await ok('start', { title: 'parallel tool calls' }));
      const events = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          ok('log_event', { session_id: id, kind: 'tool_call', message: `call ${i}` }),
        ),
      );
      expect(events.map((e) => e.seq).sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
    });

    it('refuses events and completion on an unknown session, naming it', async () => {
      const ghost = crypto.randomUUID();
      for (const [tool, args] of [
        ['log_event', { session_id: ghost, message: 'hello' }],
        ['complete', { session_id: ghost, summary: 'x' }],
        ['log_event', { session_id: 'not-a-uuid', message: 'hello' }],
      ] as const) {
        const r = await invoke(tool, args);
        expect(r.status).toBe('error');
        if (r.status !== 'error') continue;
        expect(r.error.type).toBe('TOOL_EXECUTION_ERROR');
        expect(r.error.message).toContain(args.session_id);
        expect(r.error.message).toContain('not found');
      }
    });

    it('refuses a second completion and events after completion, naming the session', async () => {
      const { id } = AgentSessionSchema.parse(await ok('start', { title: 'short one' }));
      await ok('complete', { session_id: id, summary: 'done' });
      const again = await invoke('complete', { session_id: id, summary: 'again' });
      expect(again).toMatchObject({ status: 'error', error: { type: 'TOOL_EXECUTION_ERROR' } });
      expect(again.status === 'error' && again.error.message).toMatch(new RegExp(`session ${id} is already completed`));
      const late = await invoke('log_event', { session_id: id, message: 'too late' });
      expect(late.status === 'error' && late.error.message).toContain(`session ${id} is already completed`);
      const stored = await t.node.broker.call(SessionsActions.get.action, { id });
      expect(stored).toMatchObject({ summary: 'done', event_count: 0, events: [] });
    });

    it('files a session under an existing project, the call context project by default, and refuses an unknown one', async () => {
      const project = (await t.node.broker.call('projects.create', { name: 'Gearbox' })) as { id: string };
      const explicit = await ok('start', { title: 'with project', project_id: project.id });
      expect(explicit.project_id).toBe(project.id);
      const fromContext = await ok('start', { title: 'from context' }, { project_id: project.id, client: 'cursor' });
      expect(fromContext).toMatchObject({ project_id: project.id, client: 'cursor' });
      const unknown = await invoke('start', { title: 'typo', project_id: 'no-such-project' });
      expect(unknown.status === 'error' && unknown.error.message).toContain('no-such-project');
    });

    it('rejects arguments outside the contract', async () => {
      const { id } = AgentSessionSchema.parse(await ok('start', { title: 'strict' }));
      const r = await invoke('log_event', { session_id: id, kind: 'gossip', message: 'x' });
      expect(r).toMatchObject({ status: 'error', error: { type: 'INVALID_ARGUMENTS' } });
      expect(await invoke('start', { title: '   ' })).toMatchObject({
        status: 'error',
        error: { type: 'INVALID_ARGUMENTS' },
      });
    });
  });
}
