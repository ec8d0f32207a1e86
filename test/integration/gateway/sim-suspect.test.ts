import { describe, expect, it } from 'vitest';
import { SimResultListSchema } from '../../../contracts/simulation-views.ts';
import { getJson, postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

// Issue 28 point 5: a simulation whose load and fixture sets overlap, or whose peak is zero, is flagged as suspect in
// its record: the result recorded through the registry carries `suspect` (the reasons), and so does its listing entry.
const t = useTestNode({ realDb: true });

const record = (args: Record<string, unknown>) =>
  okData(callTool(t.node.broker, 'twin.record_document', { document_type: 'simulation_result', ...args }));

describe('suspect simulation results', () => {
  it('flags overlapping load and fixture sets and a zero peak, and leaves a sound result unflagged', async () => {
    const p = (await postJson(`${t.url}/v1/projects`, { name: 'suspect sims' })).body.id as string;
    const overlap = await record({
      project_id: p,
      name: 'same face',
      summary: { max_von_mises_mpa: 31.5, max_displacement_mm: 0.12 },
      fixtures: [{ label: 'Surface6' }],
      loads: [{ label: 'Surface6', vector: [0, 0, -100] }],
    });
    const sameSet = await record({
      project_id: p,
      name: 'same node set',
      summary: { max_von_mises_mpa: 20, max_displacement_mm: 0.05 },
      load_case_spec: { fixed_node_set: 'NROOT', load_node_set: 'NROOT', load_force_n: [0, 0, -100] },
    });
    const zero = await record({
      project_id: p,
      name: 'no stress',
      summary: { max_von_mises_mpa: 0, max_displacement_mm: 0 },
      fixtures: [{ label: 'Surface1' }],
      loads: [{ label: 'Surface6' }],
    });
    const sound = await record({
      project_id: p,
      name: 'sound',
      summary: { max_von_mises_mpa: 29.28, max_displacement_mm: 0.1 },
      load_case_spec: { fixed_node_set: 'NROOT', load_node_set: 'NTIP' },
      fixtures: [{ label: 'Surface1' }],
      loads: [{ label: 'Surface6' }],
    });
    // The tool's own answer says so, for the agent that recorded it.
    expect(overlap.suspect).toEqual([expect.stringMatching(/load and fixture sets overlap.*Surface6/)]);
    expect(sound.suspect).toEqual([]);

    const res = await getJson(`${t.url}/v1/simulation/results?project_id=${p}`);
    expect(res.status).toBe(200);
    const byId = new Map(SimResultListSchema.parse(res.body).results.map((r) => [r.id, r]));
    expect(byId.get(overlap.node_id)!.suspect).toEqual([expect.stringMatching(/overlap.*Surface6/)]);
    expect(byId.get(sameSet.node_id)!.suspect).toEqual([expect.stringMatching(/overlap.*NROOT/)]);
    expect(byId.get(zero.node_id)!.suspect).toEqual([
      expect.stringMatching(/max_von_mises_mpa.*0/),
      expect.stringMatching(/max_displacement_mm.*0/),
    ]);
    expect(byId.get(sound.node_id)!.suspect).toEqual([]);
  });
});
