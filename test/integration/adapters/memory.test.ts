import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ToolResultSchema, type ToolResult } from '../../../contracts/tool-result.ts';
import { ExperienceListSchema, InsightListSchema } from '../../../contracts/sessions.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { invokeViaRegistry } from '../../support/tools.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';

const backends = [
  { name: 'PGlite (embedded)', enabled: true, database: async (): Promise<TestDatabase | undefined> => undefined },
  { name: 'PostgreSQL', enabled: inject('servers').pg, database: () => createTestDatabase('mem') },
];

for (const backend of backends) {
  describe.runIf(backend.enabled)(`memory adapter on ${backend.name}`, () => {
    let t: TestNode;
    let db: TestDatabase | undefined;
    let project: string;
    const ids: Record<string, string> = {};

    // Through the registry: arguments are validated there, once (ISSUE 13 point 3), not by the adapter.
    const invoke = async (tool: string, args: Record<string, unknown>): Promise<ToolResult> =>
      ToolResultSchema.parse(await invokeViaRegistry(t.node.broker, tool, args));
    const ok = async (tool: string, args: Record<string, unknown>) => {
      const r = await invoke(tool, args);
      if (r.status !== 'success') throw new Error(`${tool} failed: ${JSON.stringify(r.error)}`);
      return r.data;
    };

    /** Records a session through the session tools, as an agent would. */
    async function capture(
      key: string,
      title: string,
      events: [string, string, Record<string, unknown>?][],
      summary?: string,
      projectId?: string,
    ) {
      const s = await ok('session.start', { title, project_id: projectId });
      ids[key] = String(s.id);
      for (const [kind, message, data] of events)
        await ok('session.log_event', { session_id: s.id, kind, message, data: data ?? {} });
      if (summary) await ok('session.complete', { session_id: s.id, summary });
    }

    beforeAll(async () => {
      db = await backend.database();
      t = await startTestNode({
        roles: 'projects,sessions,memory,tools,adapter:session,adapter:memory',
        env: db ? { SERVICE_DATABASE_URL: db.url } : {},
      });
      project = ((await t.node.broker.call('projects.create', { name: 'Drone frame' })) as { id: string }).id;
      await capture(
        'bracket',
        'Motor bracket fatigue check',
        [
          ['note', 'Meshed the bracket with 0.5 mm tetrahedra'],
          [
            'insight',
            'Fillet radius below 2 mm concentrates stress at the bracket root',
            { theme: 'mechanical_validation' },
          ],
          ['decision', 'Raised the fillet radius to 3 mm'],
        ],
        'Bracket passes fatigue after enlarging the fillet',
        project,
      );
      await capture(
        'power',
        'Power budget of the flight controller',
        [
          ['note', 'LDO dissipates 1.2 W at full load'],
          ['lesson', 'Use a buck converter when the regulator drop exceeds 3 V', { theme: 'power_analysis' }],
        ],
        'Switched to a buck converter',
      );
      await capture(
        'arm',
        'Arm tube stiffness',
        [['insight', 'Carbon tube stiffness sets the first bending mode', { theme: 'mechanical_validation' }]],
        undefined,
        project,
      );
    });
    afterAll(async () => {
      await t?.stop();
      await db?.drop();
    });

    it('ranks the most similar session first, with its most relevant events', async () => {
      const res = ExperienceListSchema.parse(
        await ok('memory.retrieve_similar_experience', { query: 'stress concentration at a bracket fillet' }),
      );
      expect(res.experiences.length).toBeGreaterThan(0);
      const [best] = res.experiences;
      expect(best.session).toMatchObject({
        id: ids.bracket,
        status: 'completed',
        summary: 'Bracket passes fatigue after enlarging the fillet',
      });
      expect(best.score).toBeGreaterThan(0);
      expect(best.events[0]).toMatchObject({ seq: 2, kind: 'insight' });
      expect(best.events.length).toBeLessThanOrEqual(3);
      expect(best.events.every((e) => e.score > 0)).toBe(true);
      expect(res.experiences.map((e) => e.session.id)).not.toContain(ids.power);
      expect(res.experiences.map((e) => e.score)).toEqual(
        [...res.experiences.map((e) => e.score)].sort((a, b) => b - a),
      );
    });

    it('matches on event messages alone and filters by project', async () => {
      const byEvent = ExperienceListSchema.parse(
        await ok('memory.retrieve_similar_experience', { query: 'regulator dissipation' }),
      );
      expect(byEvent.experiences.map((e) => e.session.id)).toEqual([ids.power]);
      const scoped = ExperienceListSchema.parse(
        await ok('memory.retrieve_similar_experience', { query: 'stiffness regulator bracket', project_id: project }),
      );
      expect(scoped.experiences.map((e) => e.session.id).sort()).toEqual([ids.arm, ids.bracket].sort());
      const one = ExperienceListSchema.parse(
        await ok('memory.retrieve_similar_experience', { query: 'stiffness regulator bracket', limit: 1 }),
      );
      expect(one.experiences).toHaveLength(1);
    });

    it('answers nothing similar with an empty list, whatever the query text', async () => {
      expect(await ok('memory.retrieve_similar_experience', { query: 'underwater basket weaving' })).toEqual({
        query: 'underwater basket weaving',
        experiences: [],
        consolidated: [],
      });
      for (const query of ['the of and', `'quoted' \\ back\\slash & | ! :* (`, '""']) {
        const r = await invoke('memory.retrieve_similar_experience', { query });
        expect(r.status, query).toBe('success');
      }
    });

    it('lists insights and lessons newest first, verbatim, by project and theme', async () => {
      const all = InsightListSchema.parse(await ok('memory.list_insights', {}));
      expect(all.insights.map((i) => i.message)).toEqual([
        'Carbon tube stiffness sets the first bending mode',
        'Use a buck converter when the regulator drop exceeds 3 V',
        'Fillet radius below 2 mm concentrates stress at the bracket root',
      ]);
      expect(all.insights.every((i) => i.confidence === 'verbatim')).toBe(true);
      expect(all.insights[1]).toMatchObject({
        kind: 'lesson',
        theme: 'power_analysis',
        session_title: 'Power budget of the flight controller',
        project_id: null,
      });

      const scoped = InsightListSchema.parse(
        await ok('memory.list_insights', { project_id: project, theme: 'mechanical_validation', limit: 1 }),
      );
      expect(scoped.insights.map((i) => i.session_id)).toEqual([ids.arm]);
      const power = InsightListSchema.parse(await ok('memory.list_insights', { theme: 'power_analysis' }));
      expect(power.insights.map((i) => i.session_id)).toEqual([ids.power]);
      expect(await invoke('memory.list_insights', { theme: 'astrology' })).toMatchObject({
        status: 'error',
        error: { type: 'INVALID_ARGUMENTS' },
      });
    });

    it('reads through the sessions actor: its query actions answer what memory serves, and memory is healthy only while sessions answers', async () => {
      const bus = t.node.broker;
      const viaSessions = (await bus.call('sessions.searchSimilar', {
        query: 'stress concentration at a bracket fillet',
      })) as { experiences: unknown[] };
      expect(await bus.call('memory.similar', { query: 'stress concentration at a bracket fillet' })).toEqual({
        query: 'stress concentration at a bracket fillet',
        ...viaSessions,
        consolidated: [], // nothing consolidated on this node
      });
      const events = (await bus.call('sessions.insightEvents', { theme: 'power_analysis' })) as {
        events: Record<string, unknown>[];
      };
      expect(events.events.map((e) => e.session_id)).toEqual([ids.power]);
      expect(await bus.call('memory.insights', { theme: 'power_analysis' })).toEqual({
        insights: events.events.map((e) => ({ ...e, confidence: 'verbatim' })),
        consolidated: [],
      });
      expect(await bus.call('memory.health', {})).toMatchObject({ name: 'memory', status: 'healthy', message: null });

      const sessions = bus.getLocalService('sessions')!;
      await bus.destroyService(sessions);
      try {
        expect(await bus.call('memory.health', {})).toMatchObject({
          name: 'memory',
          status: 'unhealthy',
          message: expect.stringContaining('the sessions actor does not answer'),
        });
        await expect(bus.call('memory.similar', { query: 'bracket' })).rejects.toThrow(/sessions\.searchSimilar/);
      } finally {
        await bus.createService(sessions.originalSchema);
        await bus.waitForServices(['sessions']);
      }
    });
  });
}
