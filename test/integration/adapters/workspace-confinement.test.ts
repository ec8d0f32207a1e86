import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ProjectsActions } from '../../../contracts/actions/projects.actions.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import {
  INPUT_FILES,
  makeLayout,
  outsideSnapshot,
  PATH_CASES,
  plantLinks,
  writtenInside,
  type Layout,
} from '../../support/path-corpus.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';
import { callTool, okData, realDbEnv } from '../../support/tools.ts';
import { patientCall, warmUp } from './cad-support.ts';

/**
 * Finding 3 (writes escape the workspace through symlinks) and the traversal corpus: every path argument of every
 * path-taking tool, called through the registry, answers invalid arguments for each hostile path and leaves nothing
 * outside the workspace. One node serves the whole file.
 */
let t: TestNode;
let l: Layout;
let drop: () => Promise<void>;
let session: string;
const BOX = { shape_type: 'box', parameters: { length: 10, width: 10, height: 10 } };

beforeAll(async () => {
  l = makeLayout();
  const db = await realDbEnv();
  drop = db.drop;
  const roles =
    'tools,projects,twin,adapter:twin,adapter:cadscript,adapter:cadkernel,cadsessions,adapter:solver,adapter:circuit,adapter:eda';
  t = await startTestNode({ roles, env: { ...db.env, SERVICE_WORKSPACE: l.ws, SERVICE_CAD_THREADS: '1' } });
  await warmUp(t, 'cadscript.get_properties');
  await okData(callTool(t.node.broker, 'cadscript.create_parametric', { ...BOX, output_path: 'ok/a.step' }));
  await okData(
    callTool(t.node.broker, 'cadscript.create_parametric', {
      ...BOX,
      parameters: { ...BOX.parameters, x: 5 },
      output_path: 'ok/b.step',
    }),
  );
  await okData(
    callTool(t.node.broker, 'cadscript.export_geometry', {
      file_path: 'ok/a.step',
      format: 'STL',
      output_path: 'ok/a.stl',
    }),
  );
  fs.copyFileSync(path.join(SIM_FIXTURES, 'beam_coarse.inp'), path.join(l.ws, INPUT_FILES.inp));
  fs.copyFileSync(path.join(SIM_FIXTURES, 'beam_coarse.frd'), path.join(l.ws, INPUT_FILES.frd));
  fs.copyFileSync(path.join(SIM_FIXTURES, 'spice/rc_lowpass.cir'), path.join(l.ws, INPUT_FILES.cir));
  fs.copyFileSync(
    path.join(SIM_FIXTURES, 'reference_payloads/beam_coarse.field.json.gz'),
    path.join(l.ws, INPUT_FILES['json.gz']),
  );
  fs.copyFileSync('/usr/share/kicad/demos/ecc83/ecc83-pp.kicad_sch', path.join(l.ws, INPUT_FILES.kicad_sch));
  fs.copyFileSync('/usr/share/kicad/demos/ecc83/ecc83-pp.kicad_pcb', path.join(l.ws, INPUT_FILES.kicad_pcb));
  fs.writeFileSync(path.join(l.ws, INPUT_FILES.net), '(export (version "E"))\n'); // targets of the eda writes
  fs.writeFileSync(path.join(l.ws, INPUT_FILES.csv), 'References\r\n');
  plantLinks(l);
  session = (await okData(callTool(t.node.broker, 'cadkernel.open_session', { name: 'confine' }))).session_id;
  await okData(callTool(t.node.broker, 'cadkernel.import_step', { session_id: session, file_path: 'ok/a.step' }));
}, 180_000);
afterAll(async () => {
  await t?.stop();
  await drop?.();
  fs.rmSync(l.base, { recursive: true, force: true });
});

type Arg = { tool: string; arg: string; mode: 'read' | 'write'; ext: string; base: () => Record<string, unknown> };
const cad = (adapter: string): Arg[] => [
  { tool: `${adapter}.create_parametric`, arg: 'output_path', mode: 'write', ext: 'step', base: () => BOX },
  {
    tool: `${adapter}.boolean_operation`,
    arg: 'target_path',
    mode: 'read',
    ext: 'step',
    base: () => ({ tool_path: 'ok/b.step' }),
  },
  {
    tool: `${adapter}.boolean_operation`,
    arg: 'tool_path',
    mode: 'read',
    ext: 'step',
    base: () => ({ target_path: 'ok/a.step' }),
  },
  {
    tool: `${adapter}.boolean_operation`,
    arg: 'output_path',
    mode: 'write',
    ext: 'step',
    base: () => ({ target_path: 'ok/a.step', tool_path: 'ok/b.step', operation: 'union' }),
  },
  { tool: `${adapter}.get_properties`, arg: 'file_path', mode: 'read', ext: 'step', base: () => ({}) },
  { tool: `${adapter}.export_geometry`, arg: 'file_path', mode: 'read', ext: 'step', base: () => ({ format: 'STL' }) },
  {
    tool: `${adapter}.export_geometry`,
    arg: 'output_path',
    mode: 'write',
    ext: 'stl',
    base: () => ({ file_path: 'ok/a.step', format: 'STL' }),
  },
];
const BEAM = { length_mm: 100, width_mm: 10, height_mm: 10, material: 'steel' };
const ARGS: Arg[] = [
  ...cad('cadscript'),
  {
    tool: 'cadscript.execute_script',
    arg: 'output_path',
    mode: 'write',
    ext: 'step',
    base: () => ({ code: 'makeBaseBox(4, 4, 4)' }),
  },
  {
    tool: 'cadscript.create_assembly',
    arg: 'output_path',
    mode: 'write',
    ext: 'step',
    base: () => ({ name: 'set', parts: [{ name: 'p', kind: 'box', parameters: { length: 4, width: 4, height: 4 } }] }),
  },
  {
    tool: 'cadscript.generate_enclosure',
    arg: 'output_path',
    mode: 'write',
    ext: 'step',
    base: () => ({ inner_length: 10, inner_width: 10, inner_height: 10 }),
  },
  ...cad('cadkernel'),
  { tool: 'cadkernel.describe_step_file', arg: 'file_path', mode: 'read', ext: 'step', base: () => ({}) },
  {
    tool: 'cadkernel.generate_mesh',
    arg: 'file_path',
    mode: 'read',
    ext: 'step',
    base: () => ({ element_size_mm: 5 }),
  },
  {
    tool: 'cadkernel.generate_mesh',
    arg: 'output_path',
    mode: 'write',
    ext: 'inp',
    base: () => ({ file_path: 'ok/a.step', element_size_mm: 5 }),
  },
  { tool: 'cadkernel.import_step', arg: 'file_path', mode: 'read', ext: 'step', base: () => ({ session_id: session }) },
  {
    tool: 'cadkernel.export_model',
    arg: 'output_path',
    mode: 'write',
    ext: 'step',
    base: () => ({ session_id: session }),
  },
  {
    tool: 'solver.run_fea',
    arg: 'mesh_file',
    mode: 'read',
    ext: 'inp',
    base: () => ({ load_case: 'c', analysis_type: 'static_stress', material: 'steel', load_force_n: [0, 0, -1] }),
  },
  {
    tool: 'solver.run_thermal',
    arg: 'mesh_file',
    mode: 'read',
    ext: 'inp',
    base: () => ({ material: 'steel', power_dissipation_w: 1 }),
  },
  { tool: 'solver.validate_mesh', arg: 'mesh_file', mode: 'read', ext: 'inp', base: () => ({}) },
  { tool: 'solver.extract_results', arg: 'frd_path', mode: 'read', ext: 'frd', base: () => ({}) },
  {
    tool: 'solver.extract_results',
    arg: 'mesh_file',
    mode: 'read',
    ext: 'inp',
    base: () => ({ frd_path: INPUT_FILES.frd }),
  },
  {
    tool: 'solver.cross_check_cantilever_beam',
    arg: 'frd_path',
    mode: 'read',
    ext: 'frd',
    base: () => ({ ...BEAM, force_n: 100 }),
  },
  { tool: 'solver.cross_check_cantilever_frequency', arg: 'frd_path', mode: 'read', ext: 'frd', base: () => BEAM },
  {
    tool: 'solver.cross_check_thermal_steady_state',
    arg: 'frd_path',
    mode: 'read',
    ext: 'frd',
    base: () => ({ length_mm: 100, cross_section_area_mm2: 100, material: 'steel', power_w: 1 }),
  },
  {
    tool: 'circuit.run_simulation',
    arg: 'netlist_path',
    mode: 'read',
    ext: 'cir',
    base: () => ({ analysis_type: 'op' }),
  },
  { tool: 'twin.commit_geometry', arg: 'file_path', mode: 'read', ext: 'step', base: () => ({ name: 'Escape' }) },
  ...['export_netlist', 'export_bom', 'get_pin_mapping', 'run_erc'].map((name) => ({
    tool: `eda.${name}`,
    arg: 'schematic_path',
    mode: 'read' as const,
    ext: 'kicad_sch',
    base: () => ({}),
  })),
  {
    tool: 'eda.export_netlist',
    arg: 'output_path',
    mode: 'write',
    ext: 'net',
    base: () => ({ schematic_path: INPUT_FILES.kicad_sch, format: 'kicad' }),
  },
  {
    tool: 'eda.export_bom',
    arg: 'output_path',
    mode: 'write',
    ext: 'csv',
    base: () => ({ schematic_path: INPUT_FILES.kicad_sch }),
  },
  {
    tool: 'eda.generate_schematic',
    arg: 'output_path',
    mode: 'write',
    ext: 'kicad_sch',
    base: () => ({
      components: [
        {
          reference: 'R1',
          value: '1k',
          pins: [
            { number: '1', type: 'passive' },
            { number: '2', type: 'passive' },
          ],
        },
      ],
      connections: [],
      overwrite: true,
    }),
  },
  ...['run_drc', 'export_gerber', 'auto_route'].map((name) => ({
    tool: `eda.${name}`,
    arg: 'board_path',
    mode: 'read' as const,
    ext: 'kicad_pcb',
    base: () => ({}),
  })),
  {
    tool: 'eda.auto_route',
    arg: 'output_path',
    mode: 'write',
    ext: 'kicad_pcb',
    base: () => ({ board_path: INPUT_FILES.kicad_pcb }),
  },
  {
    tool: 'twin.record_document',
    arg: 'field_file',
    mode: 'read',
    ext: 'json.gz',
    base: () => ({ document_type: 'simulation_result', name: 'escape' }),
  },
];

/** The refusal a case must get: invalid arguments (INVALID_ARGUMENTS) naming the argument. */
function expectRefused(o: ToolResult, arg: string, label: string) {
  expect(o.status === 'error' && o.error.type, `${label}: ${JSON.stringify(o)}`).toBe('INVALID_ARGUMENTS');
  if (o.status === 'error' && o.error.type === 'INVALID_ARGUMENTS')
    expect(JSON.stringify(o.error.details.validation_errors), label).toContain(arg);
}

describe('the hostile cases of finding 3', () => {
  it('refuses output_path through a symlinked folder and writes nothing outside', async () => {
    const o = await callTool(t.node.broker, 'cadscript.create_parametric', { ...BOX, output_path: 'link_dir/cp.step' });
    expectRefused(o, 'output_path', 'link_dir/cp.step');
    expect(fs.existsSync(path.join(l.out, 'cp.step'))).toBe(false);
  });

  it('refuses a dangling symlink as the output target and does not create its target', async () => {
    const o = await callTool(t.node.broker, 'cadscript.create_parametric', { ...BOX, output_path: 'dangling.step' });
    expectRefused(o, 'output_path', 'dangling.step');
    expect(fs.existsSync(path.join(l.out, 'made-through-dangling.step'))).toBe(false);
  });

  it('refuses to stage a work product through a symlinked staged/ folder or a dangling link in it', async () => {
    const project = await call(t.node.broker, ProjectsActions.create, { name: 'confine', description: '' });
    const step = fs.readFileSync(path.join(l.ws, 'ok/a.step')).toString('base64');
    const g = await okData(
      callTool(t.node.broker, 'twin.commit_geometry', { project_id: project.id, name: 'Staged', step_base64: step }),
    );
    const before = outsideSnapshot(l);
    fs.symlinkSync(l.out, path.join(l.ws, 'staged'));
    const linked = await callTool(t.node.broker, 'twin.stage_work_product_file', { node_id: g.node_id });
    expect(linked.status, JSON.stringify(linked)).not.toBe('success');
    expect(outsideSnapshot(l)).toEqual(before);

    fs.unlinkSync(path.join(l.ws, 'staged'));
    fs.mkdirSync(path.join(l.ws, 'staged', g.node_id), { recursive: true });
    fs.symlinkSync(path.join(l.out, 'staged-through-link.step'), path.join(l.ws, 'staged', g.node_id, 'Staged.step'));
    const dangling = await callTool(t.node.broker, 'twin.stage_work_product_file', { node_id: g.node_id });
    expect(dangling.status, JSON.stringify(dangling)).not.toBe('success');
    expect(outsideSnapshot(l)).toEqual(before);

    fs.rmSync(path.join(l.ws, 'staged'), { recursive: true });
    const ok = await okData(callTool(t.node.broker, 'twin.stage_work_product_file', { node_id: g.node_id }));
    expect(writtenInside(l, ok.file_path)).toBe(true);
  });
});

describe('the traversal corpus against every path argument of every path-taking tool', () => {
  it.each(ARGS.map((a) => [`${a.tool} ${a.arg}`, a] as const))(
    '%s',
    async (_label, a) => {
      for (const c of PATH_CASES) {
        const expected = a.mode === 'read' ? c.read : c.write;
        if (expected === 'skip') continue;
        const p = c.path(a.ext, l);
        const label = `${a.tool} ${a.arg}=${JSON.stringify(p)} (${c.name})`;
        const before = outsideSnapshot(l);
        const o = await patientCall(t, a.tool, { ...a.base(), [a.arg]: p });
        if (expected === 'refused') expectRefused(o, a.arg, label);
        else if (o.status === 'success')
          for (const f of o.output_files ?? []) expect(writtenInside(l, f), `${label}: wrote ${f}`).toBe(true);
        expect(outsideSnapshot(l), label).toEqual(before);
      }
    },
    180_000,
  );
});
