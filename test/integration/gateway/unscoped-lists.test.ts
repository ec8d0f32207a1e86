import { describe, expect, it } from 'vitest';
import { getJson, postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

// Issue 28 point 5: every project-scoped list the dashboard reads says how many items it left out for having no
// project (`unscoped_count`, as GET /v1/approvals does); 0 without a project filter, where nothing is left out.
const t = useTestNode({ realDb: true });

const tool = (name: string, args: Record<string, unknown>) => okData(callTool(t.node.broker, name, args));

describe('project-scoped lists answer unscoped_count', () => {
  it('sessions, knowledge sources and simulation results count the items with no project', async () => {
    const p = (await postJson(`${t.url}/v1/projects`, { name: 'scoped lists' })).body.id as string;
    await tool('session.start', { title: 'scoped session', project_id: p });
    await tool('session.start', { title: 'loose session' });
    await tool('knowledge.ingest', { title: 'scoped notes', text: 'Wall 2.5 mm.', project_id: p });
    await tool('knowledge.ingest', { title: 'loose notes', text: 'No project.' });
    await tool('knowledge.ingest', { title: 'more loose notes', text: 'Still no project.' });
    const sim = { document_type: 'simulation_result', summary: { max_von_mises_mpa: 10 } };
    await tool('twin.record_document', { ...sim, name: 'scoped sim', project_id: p });
    await tool('twin.record_document', { ...sim, name: 'loose sim' });

    const cases: [string, string, number][] = [
      ['/v1/sessions', 'sessions', 1],
      ['/v1/knowledge/sources', 'sources', 2],
      ['/v1/simulation/results', 'results', 1],
    ];
    for (const [route, key, loose] of cases) {
      const scoped = await getJson(`${t.url}${route}?project_id=${p}`);
      expect(scoped.status, route).toBe(200);
      expect(scoped.body, route).toMatchObject({ total: 1, unscoped_count: loose });
      expect((scoped.body as Record<string, unknown[]>)[key], route).toHaveLength(1);
      expect((await getJson(`${t.url}${route}`)).body, route).toMatchObject({ unscoped_count: 0 });
    }
  });

  it('the twin current view and the runs list count the items and runs with no project', async () => {
    const p = (await postJson(`${t.url}/v1/projects`, { name: 'scoped twin and runs' })).body.id as string;
    const step = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n').toString('base64');
    await tool('twin.commit_geometry', { name: 'scoped beam', step_base64: step, project_id: p });
    await tool('twin.commit_geometry', { name: 'loose beam', step_base64: step });
    await tool('twin.commit_geometry', { name: 'another loose beam', step_base64: step });
    const view = await getJson(`${t.url}/v1/twin/current-view?project_id=${p}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ item_count: 1, unscoped_count: 2 });
    expect((await getJson(`${t.url}/v1/twin/current-view`)).body).toMatchObject({ unscoped_count: 0 });

    const start = (project_id?: string) =>
      postJson(`${t.url}/v1/runs`, {
        design_flow: 'mech_v1',
        goal: 'a bracket',
        ...(project_id ? { project_id } : {}),
      });
    expect((await start(p)).status).toBe(201);
    expect((await start()).status).toBe(201);
    const runs = await getJson(`${t.url}/v1/runs?project_id=${p}`);
    expect(runs.status).toBe(200);
    expect(runs.body).toMatchObject({ total: 1, unscoped_count: 1 });
    expect((await getJson(`${t.url}/v1/runs`)).body).toMatchObject({ total: 2, unscoped_count: 0 });
  });
});
