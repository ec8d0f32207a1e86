import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runErcTool } from '../../../../actors/adapters/eda/erc.tool.ts';
import { MAX_PROJECT_BYTES } from '../../../../actors/adapters/eda/erc-project.ts';
import type { ToolContext } from '../../../../actors/adapters/kit/tool.ts';
import { InvalidArgumentsError } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { CLEAN, file, sym } from './erc-schematics.ts';

describe('eda.run_erc', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'erc-'));
    await fs.mkdir(path.join(root, 'p'));
    await fs.writeFile(
      path.join(root, 'p/top.kicad_sch'),
      file(...CLEAN, sym('OUT', 'U10', 120, 50), sym('OUT', 'U11', 120, 50)),
    );
    await fs.writeFile(path.join(root, 'p/bad.kicad_sch'), '(kicad_sch (version 20211123)\n (symbol ');
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));
  const call = (args: Record<string, unknown>) =>
    runErcTool(new Workspace(root)).handler(
      { severity: 'all', max_violations: 1000, use_project: true, ...args } as never,
      { outputFiles: [] } as unknown as ToolContext,
    );

  it('reports through the workspace', async () => {
    const r = await call({ schematic_path: 'p/top.kicad_sch' });
    expect(r).toMatchObject({ passed: false, error_count: 1, by_type: { pin_to_pin: 1 }, files: ['p/top.kicad_sch'] });
  });

  it("applies the .kicad_pro beside the schematic; use_project false is KiCad 9's defaults", async () => {
    const pro = path.join(root, 'p/top.kicad_pro');
    await fs.writeFile(pro, JSON.stringify({ erc: { rule_severities: { pin_to_pin: 'ignore' } } }));
    try {
      const r = await call({ schematic_path: 'p/top.kicad_sch' });
      expect(r).toMatchObject({ passed: true, error_count: 0, project_file: 'p/top.kicad_pro', project_notes: [] });
      const d = await call({ schematic_path: 'p/top.kicad_sch', use_project: false });
      expect(d).toMatchObject({ error_count: 1, project_file: null });
    } finally {
      await fs.rm(pro);
    }
  });

  it('a hostile .kicad_pro: not JSON or not an object is refused naming it; wrong types fall back as KiCad does', async () => {
    const pro = path.join(root, 'p/top.kicad_pro');
    try {
      for (const text of ['{ "erc": { "rule_severities": ', '[1, 2]', 'null', '"x"']) {
        await fs.writeFile(pro, text);
        await expect(call({ schematic_path: 'p/top.kicad_sch' })).rejects.toThrow(InvalidArgumentsError);
        await expect(call({ schematic_path: 'p/top.kicad_sch' })).rejects.toThrow(/project file p\/top\.kicad_pro/);
        expect((await call({ schematic_path: 'p/top.kicad_sch', use_project: false })).error_count).toBe(1);
      }
      await fs.writeFile(
        pro,
        JSON.stringify({
          erc: {
            rule_severities: { pin_to_pin: 5, pin_not_driven: 'bogus', __proto__: 'ignore', label_dangling: ['x'] },
            pin_map: 'x',
            erc_exclusions: [42, 'no-bars', ['pin_to_pin|a|b']],
          },
        }),
      );
      const r = await call({ schematic_path: 'p/top.kicad_sch' });
      expect(r).toMatchObject({ error_count: 1, by_type: { pin_to_pin: 1 }, excluded_count: 0 });
      expect(r.project_notes).toHaveLength(6);
      await fs.writeFile(pro, JSON.stringify({ erc: [] }));
      expect((await call({ schematic_path: 'p/top.kicad_sch' })).project_notes).toEqual([
        'erc is not an object: defaults used',
      ]);
      await fs.writeFile(pro, Buffer.alloc(MAX_PROJECT_BYTES + 1, 32));
      await expect(call({ schematic_path: 'p/top.kicad_sch' })).rejects.toThrow(/over 4194304/);
      await fs.rm(pro);
      await fs.symlink('/etc/hostname', pro);
      await expect(call({ schematic_path: 'p/top.kicad_sch' })).rejects.toThrow(/outside the workspace/);
    } finally {
      await fs.rm(pro, { force: true });
    }
  });

  it('refuses a malformed file and a path outside the workspace, naming them', async () => {
    await expect(call({ schematic_path: 'p/bad.kicad_sch' })).rejects.toThrow(InvalidArgumentsError);
    await expect(call({ schematic_path: 'p/bad.kicad_sch' })).rejects.toThrow(/p\/bad\.kicad_sch/);
    await expect(call({ schematic_path: '../x.kicad_sch' })).rejects.toThrow(/outside the workspace/);
    await expect(call({ schematic_path: 'p/none.kicad_sch' })).rejects.toThrow(/cannot be read/);
  });
});
