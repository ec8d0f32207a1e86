import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BomListSchema } from '../../../../contracts/twin.ts';
import { getJson, postJson } from '../../../support/http-raw.ts';
import { useTestNode } from '../../../support/node.ts';
import { callTool, okData } from '../../../support/tools.ts';
import { demoWorkspace } from './demo-workspace.ts';

// A BOM exported from a real schematic, recorded with the twin's own tool, is what GET /v1/bom lists; the netlist and
// ERC report are recorded as the schematic item's next revision.
const workspace = demoWorkspace('eda-twin-', ['pic_programmer']);
const t = useTestNode({ realDb: true, env: { SERVICE_WORKSPACE: workspace } });
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

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
