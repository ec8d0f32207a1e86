import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../../brokers/actions.ts';
import { ToolsActions } from '../../../../contracts/actions/tools.actions.ts';
import { annotationsOf, TOOL_CATALOGUE } from '../../../../contracts/tool-catalogue.ts';
import { BomListSchema } from '../../../../contracts/twin.ts';
import { getJson, postJson } from '../../../support/http-raw.ts';
import { useTestNode } from '../../../support/node.ts';
import { callTool, okData } from '../../../support/tools.ts';
import { DEMOS, demoWorkspace } from './demo-workspace.ts';

// A BOM exported from a real schematic, recorded with the twin's own tool, is what GET /v1/bom lists; the netlist and
// ERC report are recorded as the schematic item's next revision.
const workspace = demoWorkspace('eda-twin-', ['pic_programmer']);
const t = useTestNode({ realDb: true, env: { SERVICE_WORKSPACE: workspace } });
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

describe('the full catalogue on the embedded default', () => {
  it('serves the 97 tools, the electronics profile whole (25), the eda tools with their catalogue annotations', async () => {
    const all = await call(t.node.broker, ToolsActions.list, {});
    expect(all.tools).toHaveLength(97);
    const electronics = await call(t.node.broker, ToolsActions.list, { profile: 'electronics' });
    expect(electronics.tools).toHaveLength(25);
    expect(electronics.profile_missing).toEqual([]);
    const eda = all.tools.filter((x) => x.adapter_id === 'eda');
    expect(eda.map((x) => x.name).sort()).toEqual([
      'auto_route',
      'export_bom',
      'export_gerber',
      'export_netlist',
      'generate_schematic',
      'get_pin_mapping',
      'run_drc',
      'run_erc',
    ]);
    for (const x of eda) expect(x.annotations, x.tool_id).toEqual(annotationsOf(TOOL_CATALOGUE.get(x.tool_id)!));
  });
});

describe('eda results in the twin', () => {
  it('GET /v1/bom shows the BOM exported from pic_programmer, line by line', async () => {
    const project = (await postJson(`${t.url}/v1/projects`, { name: 'pic programmer' })).body.id as string;
    const bom = await okData<{ lines: { designators: string; quantity: number; value: string; footprint: string }[] }>(
      callTool(t.node.broker, 'eda.export_bom', { schematic_path: 'pic_programmer/pic_programmer.kicad_sch' }),
    );
    const recorded = await okData(
      callTool(t.node.broker, 'twin.record_document', {
        project_id: project,
        document_type: 'bom',
        name: 'PIC programmer BOM',
        content: 'exported from pic_programmer.kicad_sch',
        properties: { lines: bom.lines },
      }),
    );
    const list = BomListSchema.parse((await getJson(`${t.url}/v1/bom?project_id=${project}`)).body);
    expect(list.total).toBe(bom.lines.length);
    expect(list.components.map((c) => c.designator)).toEqual(bom.lines.map((l) => l.designators));
    expect(list.components.map((c) => c.quantity)).toEqual(bom.lines.map((l) => l.quantity));
    expect(list.components.map((c) => c.footprint)).toEqual(bom.lines.map((l) => l.footprint));
    expect(list.components[0]!.id).toBe(`${recorded.item_key}#1`);
    expect(list.components.reduce((n, c) => n + c.quantity, 0)).toBe(63);

    const netlist = await okData<{ net_count: number; netlist_file: string }>(
      callTool(t.node.broker, 'eda.export_netlist', {
        schematic_path: 'pic_programmer/pic_programmer.kicad_sch',
        format: 'kicad',
      }),
    );
    const sch = await okData(
      callTool(t.node.broker, 'twin.record_document', {
        project_id: project,
        document_type: 'schematic',
        name: 'PIC programmer',
        content: fs.readFileSync(`${workspace}/${netlist.netlist_file}`, 'utf8'),
        properties: { net_count: netlist.net_count, source: 'pic_programmer/pic_programmer.kicad_sch' },
      }),
    );
    expect(sch.item_key).toMatch(/^SCH-/);

    fs.cpSync(
      `${DEMOS}/pic_programmer/pic_programmer.kicad_pcb`,
      `${workspace}/pic_programmer/pic_programmer.kicad_pcb`,
    );
    const gerbers = await okData<{ files: { path: string; kind: string }[] }>(
      callTool(t.node.broker, 'eda.export_gerber', { board_path: 'pic_programmer/pic_programmer.kicad_pcb' }),
    );
    const mfg = await okData(
      callTool(t.node.broker, 'twin.record_document', {
        project_id: project,
        document_type: 'manufacturing_file',
        name: 'PIC programmer Gerbers',
        content: gerbers.files.map((f) => f.path).join('\n'),
        properties: { files: gerbers.files },
      }),
    );
    expect(mfg.item_key).toMatch(/^MFG-/);
  });

  it('refuses properties on a document that is not a definition, writing nothing', async () => {
    const o = await callTool(t.node.broker, 'twin.record_document', {
      document_type: 'meeting_note',
      content: 'x',
      properties: { a: 1 },
    });
    expect(o.status === 'error' && o.error.type).toBe('INVALID_ARGUMENTS');
  });
});
