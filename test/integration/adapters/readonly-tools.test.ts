import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { RunsActions } from '../../../contracts/actions/runs.actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import { OUTPUT_ARGS } from '../../../contracts/tool-catalogue.ts';
import { createProject } from '../../support/holds.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { copyFixture, tempWorkspace } from '../../support/sim-fixtures.ts';
import { callTool, okData, realDbEnv } from '../../support/tools.ts';
import { DEMOS } from './eda/demo-workspace.ts';

/**
 * Issue 27 finding 4, "tool annotations tell the truth": every tool the registry lists as read-only is run through
 * the registry in a throwaway workspace, and the workspace (paths, sizes, mtimes, hashes) must be the same afterwards
 * except for the call's own new scratch folder (`calls/<tool>/<id>/`). A read-only tool this node cannot run would be
 * named in NOT_RUN with the reason (none today: the web tools reach a loopback server); the lists must name exactly
 * the read-only tools served.
 */
const NOT_RUN: Record<string, string> = {};

/** The web the web tools reach: a page and a SearxNG-shaped search endpoint on loopback. */
const web = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://local');
  if (url.pathname === '/search')
    return res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ results: [{ title: 'beam tables', url: 'https://example.org/b', content: 'IPE 200' }] }));
  return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>E = 210 GPa</p></body></html>');
});
let webBase = '';

const ws = tempWorkspace('readonly-tools-');
let t: TestNode;
let drop: () => Promise<void>;
const ids: Record<'project' | 'node' | 'run' | 'session' | 'object', string> = {
  project: '',
  node: '',
  run: '',
  session: '',
  object: '',
};
const BEAM = { length_mm: 100, width_mm: 10, height_mm: 10, material: 'steel' };
const SCH = 'pic_programmer/pic_programmer.kicad_sch';

/** Valid arguments of each read-only tool, from the fixtures set up below. */
const ARGS: Record<string, () => Record<string, unknown>> = {
  'project.get': () => ({ project_id: ids.project }),
  'project.list': () => ({}),
  'knowledge.search': () => ({ query: 'cantilever beam' }),
  'memory.retrieve_similar_experience': () => ({ query: 'cantilever beam' }),
  'memory.list_insights': () => ({}),
  'tools.search': () => ({ query: 'mesh' }),
  'twin.query_cypher': () => ({ query: 'MATCH (n) RETURN n LIMIT 5' }),
  'twin.get_node': () => ({ node_id: ids.node }),
  'twin.item_history': () => ({ node_id: ids.node }),
  'flow.list': () => ({ project_id: ids.project }),
  'flow.status': () => ({ run_id: ids.run }),
  'flow.lifecycle': () => ({ run_id: ids.run }),
  'flow.verify_completion': () => ({ run_id: ids.run }),
  'flow.capabilities': () => ({ flow: 'mech_v1' }),
  'flow.compile_intent': () => ({ request: 'an aluminium plate 100 x 50 x 5 mm, safety factor 3' }),
  'eda.get_pin_mapping': () => ({ schematic_path: SCH }),
  'eda.run_erc': () => ({ schematic_path: SCH }),
  'eda.run_drc': () => ({ board_path: 'pic_programmer/pic_programmer.kicad_pcb' }),
  'solver.validate_mesh': () => ({ mesh_file: 'sim/beam_coarse.inp' }),
  'solver.extract_results': () => ({ frd_path: 'sim/beam_coarse.frd', mesh_file: 'sim/beam_coarse.inp' }),
  'solver.check_mesh_convergence': () => ({
    points: [
      { element_size_mm: 4, max_von_mises_mpa: 100 },
      { element_size_mm: 2, max_von_mises_mpa: 104 },
      { element_size_mm: 1, max_von_mises_mpa: 105 },
    ],
  }),
  'solver.cross_check_cantilever_beam': () => ({ ...BEAM, force_n: 100, frd_path: 'sim/beam_coarse.frd' }),
  'solver.cross_check_cantilever_frequency': () => ({ ...BEAM, fea_first_frequency_hz: 800 }),
  'solver.cross_check_thermal_steady_state': () => ({
    length_mm: 100,
    cross_section_area_mm2: 100,
    material: 'steel',
    power_w: 1,
    fea_max_temperature_c: 60,
  }),
  'solver.compute_joint_loads': () => ({
    links: [
      { length_mm: 300, mass_kg: 2 },
      { length_mm: 200, mass_kg: 1 },
    ],
    payload_kg: 0.5,
  }),
  'web.search': () => ({ query: 'beam tables' }),
  'web.fetch': () => ({ url: `${webBase}/page` }),
  'cadscript.get_properties': () => ({ file_path: 'cad/box.step' }),
  'cadkernel.get_properties': () => ({ file_path: 'cad/box.step' }),
  'cadkernel.describe_step_file': () => ({ file_path: 'cad/box.step' }),
  'cadkernel.describe_session': () => ({ session_id: ids.session }),
  'cadkernel.measure': () => ({ session_id: ids.session, object_id: ids.object }),
  'cadkernel.describe_model': () => ({ session_id: ids.session }),
  'cadkernel.list_joints': () => ({ session_id: ids.session }),
};

type Entry =
  { kind: 'file'; size: number; mtime: number; hash: string } | { kind: 'dir' } | { kind: 'link'; to: string };

/** Every path under the workspace with what it is (files: size, mtime and content hash). */
function snapshot(root: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(root, r);
      const st = fs.lstatSync(abs);
      if (st.isSymbolicLink()) out.set(r, { kind: 'link', to: fs.readlinkSync(abs) });
      else if (st.isDirectory()) {
        out.set(r, { kind: 'dir' });
        walk(r);
      } else {
        const hash = crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
        out.set(r, { kind: 'file', size: st.size, mtime: st.mtimeMs, hash });
      }
    }
  };
  walk('');
  return out;
}

/** Paths added, changed or removed by one call of `tool`, less its own new scratch folder and the folders above it. */
function changesOutsideScratch(tool: string, before: Map<string, Entry>, after: Map<string, Entry>): string[] {
  const own = `calls/${tool.replace(/[^a-z0-9_.-]/gi, '_')}`;
  const ownScratch = (p: string) => {
    if (p === 'calls' || p === own) return true;
    const folder = p.startsWith(`${own}/`) ? p.split('/').slice(0, 3).join('/') : undefined;
    return folder !== undefined && !before.has(folder);
  };
  const changed: string[] = [];
  for (const [p, e] of after) {
    const was = before.get(p);
    if (was && JSON.stringify(was) === JSON.stringify(e)) continue;
    if (!was && ownScratch(p)) continue;
    changed.push(`${was ? 'changed' : 'added'} ${p}`);
  }
  for (const p of before.keys()) if (!after.has(p)) changed.push(`removed ${p}`);
  return changed;
}

beforeAll(async () => {
  copyFixture(ws.root, 'beam_coarse.inp', 'sim/beam_coarse.inp');
  copyFixture(ws.root, 'beam_coarse.frd', 'sim/beam_coarse.frd');
  fs.mkdirSync(path.join(ws.root, 'pic_programmer'));
  for (const f of fs.readdirSync(path.join(DEMOS, 'pic_programmer')))
    if (/\.(kicad_sch|kicad_pcb|kicad_pro)$/.test(f))
      fs.copyFileSync(path.join(DEMOS, 'pic_programmer', f), path.join(ws.root, 'pic_programmer', f));
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webBase = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  const db = await realDbEnv();
  drop = db.drop;
  t = await startTestNode({
    env: {
      ...db.env,
      SERVICE_WORKSPACE: ws.root,
      SERVICE_CAD_THREADS: '1',
      SERVICE_WEB_SEARCH_URL: `${webBase}/search`,
    },
  });
  const b = t.node.broker;
  await okData(
    callTool(b, 'cadscript.create_parametric', {
      shape_type: 'box',
      parameters: { length: 20, width: 10, height: 5 },
      output_path: 'cad/box.step',
    }),
  );
  ids.project = await createProject(t.url, 'read-only sweep');
  ids.node = (
    await okData(
      callTool(b, 'twin.record_document', {
        project_id: ids.project,
        document_type: 'objective',
        name: 'light bracket',
        content: 'under 200 g',
      }),
    )
  ).node_id;
  ids.run = (
    await okData(callTool(b, 'flow.start_run', { design_flow: 'mech_v1', project_id: ids.project, goal: 'a bracket' }))
  ).id;
  // The run waits at its first gate: nothing of it runs while the tools are watched.
  await vi.waitFor(
    async () => expect((await call(b, RunsActions.get, { run_id: ids.run })).gate?.phase ?? null).toBe('intent'),
    { timeout: 30_000, interval: 50 },
  );
  ids.session = (await okData(callTool(b, 'cadkernel.open_session', { name: 'sweep' }))).session_id;
  const prim = await okData(
    callTool(b, 'cadkernel.create_primitive', {
      session_id: ids.session,
      shape_type: 'box',
      parameters: { length: 10, width: 10, height: 10 },
      name: 'block',
    }),
  );
  ids.object = prim.object_id ?? prim.id;
}, 180_000);

afterAll(async () => {
  await t?.stop();
  await drop?.();
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
  ws.remove();
});

const readOnlyTools = async () =>
  (await call(t.node.broker, ToolsActions.list, {})).tools.filter((x) => x.annotations?.readOnlyHint === true);

describe('every read-only tool is read-only', () => {
  it('names exactly the read-only tools served: each run here or listed with its reason', async () => {
    const served = (await readOnlyTools()).map((x) => x.tool_id).sort();
    expect(served.length).toBeGreaterThan(20);
    expect([...Object.keys(ARGS), ...Object.keys(NOT_RUN)].sort()).toEqual(served);
  });

  it('gives no read-only tool an argument that names a workspace output', async () => {
    for (const x of await readOnlyTools()) {
      const props = Object.keys((x.input_schema as { properties?: object }).properties ?? {});
      expect(
        props.filter((p) => (OUTPUT_ARGS as readonly string[]).includes(p) || p === 'overwrite'),
        x.tool_id,
      ).toEqual([]);
    }
  });

  it.each(Object.keys(ARGS).sort())(
    '%s changes nothing outside its own scratch folder',
    async (tool) => {
      const before = snapshot(ws.root);
      await okData(callTool(t.node.broker, tool, ARGS[tool]!()));
      expect(changesOutsideScratch(tool, before, snapshot(ws.root))).toEqual([]);
    },
    60_000,
  );
});
