import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NamedFacesResponseSchema } from '../../../contracts/simulation-mesh.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { tempWorkspace, writeStep } from '../../support/sim-fixtures.ts';
import { callTool, okData } from '../../support/tools.ts';

/** `POST /v1/simulation/named-faces`: the face naming of cadkernel.generate_mesh for a workspace STEP or a twin node. */
const ws = tempWorkspace('faces-ws-');
let t: TestNode;
beforeAll(async () => {
  writeStep(ws.root, 'block', 'Box(1) = {10, 0, 0, 60, 20, 5};');
  t = await startTestNode({
    roles: 'gateway,tools,twin,adapter:twin,adapter:solver',
    env: { SERVICE_WORKSPACE: ws.root },
  });
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

const post = (body: unknown) =>
  fetch(`${t.url}/v1/simulation/named-faces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('POST /v1/simulation/named-faces', () => {
  it('names the six faces of a workspace STEP with area, centroid, bounds and outward normal, in the twin frame', async () => {
    const res = await post({ file_path: 'block.step' });
    expect(res.status).toBe(200);
    const body = NamedFacesResponseSchema.parse(await res.json());
    expect(body).toMatchObject({
      source: { file_path: 'block.step' },
      face_count: 6,
      coordinate_frame: 'twin',
      placement_baked: true,
    });
    expect(body.mesh_bbox_mm.min.map((x) => Math.round(x))).toEqual([10, 0, 0]);
    expect(body.mesh_bbox_mm.max.map((x) => Math.round(x))).toEqual([70, 20, 5]);
    const byNormal = Object.fromEntries(
      Object.values(body.surface_sets).map((f) => [f.normal!.map((x) => Math.round(x)).join(','), f]),
    );
    expect(Object.keys(byNormal).sort()).toEqual(['-1,0,0', '0,-1,0', '0,0,-1', '0,0,1', '0,1,0', '1,0,0'].sort());
    expect(byNormal['1,0,0'].area_mm2).toBeCloseTo(100, 6);
    expect(byNormal['0,0,1'].area_mm2).toBeCloseTo(1200, 6);
    expect(byNormal['0,0,1'].centroid_mm.map((x) => Number(x.toFixed(6)))).toEqual([40, 10, 5]);
    expect(Object.values(body.surface_sets).every((f) => f.planar)).toBe(true);
    expect(
      fs.readdirSync(path.join(ws.root, 'calls')).flatMap((d) => fs.readdirSync(path.join(ws.root, 'calls', d))),
    ).toEqual([]);
  });

  it('answers the same naming for the STEP of a committed geometry node', async () => {
    const step = fs.readFileSync(path.join(ws.root, 'block.step')).toString('base64');
    const geom = await okData(callTool(t.node.broker, 'twin.commit_geometry', { name: 'Block', step_base64: step }));
    const byNode = await (await post({ node_id: geom.node_id })).json();
    const byFile = await (await post({ file_path: 'block.step' })).json();
    expect(byNode.source).toEqual({ node_id: geom.node_id });
    expect(byNode.surface_sets).toEqual(byFile.surface_sets);
  });

  it('refuses a body naming both or neither source (422), a path outside the workspace or no STEP (422), and an unknown node (404)', async () => {
    expect((await post({})).status).toBe(422);
    expect((await post({ file_path: 'block.step', node_id: 'x' })).status).toBe(422);
    const outside = await post({ file_path: '../../etc/hostname' });
    expect(outside.status).toBe(422);
    expect(((await outside.json()) as { error: { message: string } }).error.message).toContain('outside the workspace');
    fs.writeFileSync(path.join(ws.root, 'text.step'), 'hello');
    expect((await post({ file_path: 'text.step' })).status).toBe(422);
    expect((await post({ node_id: '00000000-0000-0000-0000-000000000000' })).status).toBe(404);
  });
});
