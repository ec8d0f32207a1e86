import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../../brokers/actions.ts';
import { adapterActions } from '../../../../contracts/actions/adapters.actions.ts';
import { useTestNode } from '../../../support/node.ts';
import { callTool, okData } from '../../../support/tools.ts';
import { demoWorkspace } from './demo-workspace.ts';

// A node without KiCad 9 (no kicad-cli, a Python that cannot import pcbnew: a machine without Debian's kicad from
// bookworm-backports): the adapter is degraded and says which tools are unavailable, naming kicad-cli, the package
// and the suite; those fail with TOOL_UNAVAILABLE the same way; the native tools still work.
const workspace = demoWorkspace('eda-nokicad-', ['ecc83']);
const t = useTestNode({
  roles: 'tools,adapter:eda',
  env: {
    SERVICE_WORKSPACE: workspace,
    SERVICE_EDA_PYTHON: '/nonexistent/python3',
    SERVICE_EDA_KICAD_CLI: '/nonexistent/kicad-cli',
  },
});
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

describe('the eda adapter without KiCad', () => {
  it('reports itself degraded, naming the unavailable tools, kicad-cli, the Debian package and the suite', async () => {
    const health = await call(t.node.broker, adapterActions('eda').health, {});
    const manifest = await call(t.node.broker, adapterActions('eda').manifest, {});
    expect(health.message).toContain('kicad-cli');
    expect(health.message).toContain('bookworm-backports');
    expect(health).toMatchObject({
      status: 'degraded',
      message: expect.stringContaining('Debian package kicad'),
      unavailable_tools: ['eda.run_drc', 'eda.export_gerber', 'eda.auto_route'].filter((id) =>
        manifest.tools.some((x) => x.tool_id === id),
      ),
    });
    expect(health.tools_available).toBe(manifest.tools.length - health.unavailable_tools!.length);
  });

  it('fails the board tools with TOOL_UNAVAILABLE before they run, writing nothing', async () => {
    for (const [tool, args] of [
      ['eda.run_drc', { board_path: 'ecc83/ecc83-pp.kicad_pcb' }],
      ['eda.export_gerber', { board_path: 'ecc83/ecc83-pp.kicad_pcb', output_dir: 'gerbers' }],
    ] as const) {
      const o = await callTool(t.node.broker, tool, args);
      expect(o.status === 'error' && o.error.type, JSON.stringify(o)).toBe('TOOL_UNAVAILABLE');
      expect(JSON.stringify(o)).toContain('Debian package kicad from the suite bookworm-backports');
      expect(JSON.stringify(o)).toContain('kicad-cli');
    }
    expect(fs.existsSync(`${workspace}/gerbers`)).toBe(false);
  });

  it('still reads schematics natively: netlist, BOM, pin map and ERC', async () => {
    const schematic_path = 'ecc83/ecc83-pp.kicad_sch';
    expect((await okData(callTool(t.node.broker, 'eda.export_netlist', { schematic_path }))).net_count).toBeGreaterThan(
      0,
    );
    expect((await okData(callTool(t.node.broker, 'eda.export_bom', { schematic_path }))).part_count).toBe(15);
    expect((await okData(callTool(t.node.broker, 'eda.get_pin_mapping', { schematic_path }))).part_count).toBe(15);
    expect((await okData(callTool(t.node.broker, 'eda.run_erc', { schematic_path }))).passed).toBe(true);
  });
});
