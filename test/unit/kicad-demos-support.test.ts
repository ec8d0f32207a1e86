import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProjects, schematicVersion } from '../support/kicad-demos.ts';

// The helper that finds KiCad's demos by version (test/support/kicad-demos.ts): a folder counts only by the version
// its files carry, and a project is a .kicad_pro with its root schematic beside it.
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kicad-demos-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('kicad demo helper', () => {
  it("reads a schematic's version from its head, 0 when absent or unreadable", () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, 'a.kicad_sch'), '(kicad_sch\n\t(version 20250114)\n\t(generator "eeschema")');
    fs.writeFileSync(path.join(d, 'b.kicad_sch'), 'EESchema Schematic File Version 4');
    expect(schematicVersion(path.join(d, 'a.kicad_sch'))).toBe(20250114);
    expect(schematicVersion(path.join(d, 'b.kicad_sch'))).toBe(0);
    expect(schematicVersion(path.join(d, 'none.kicad_sch'))).toBe(0);
  });

  it('lists the projects whose root schematic sits beside their .kicad_pro, nested folders included', () => {
    const d = tmp();
    for (const f of [
      'p/p.kicad_pro',
      'p/p.kicad_sch',
      'p/sub.kicad_sch',
      'q/r/r.kicad_pro',
      'q/r/r.kicad_sch',
      'board/b.kicad_pro',
    ]) {
      fs.mkdirSync(path.dirname(path.join(d, f)), { recursive: true });
      fs.writeFileSync(path.join(d, f), '');
    }
    expect(demoProjects(d)).toEqual(['p/p.kicad_sch', 'q/r/r.kicad_sch']);
  });
});
