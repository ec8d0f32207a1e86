import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { callTool, refusedIssues } from '../../../support/tools.ts';
import { DEMOS } from './demo-workspace.ts';

// Hostile and broken schematics through the registry, for every schematic-reading tool: each is refused as invalid
// arguments naming the file (and the line where the reader stopped), and nothing is written anywhere.
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'eda-bad-'));
const ws = path.join(base, 'ws');
const write = (rel: string, text: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
};
const good = fs.readFileSync(path.join(DEMOS, 'ecc83/ecc83-pp.kicad_sch'), 'utf8');
write('bad/truncated.kicad_sch', good.slice(0, Math.floor(good.length / 2)));
write('bad/legacy.sch', 'EESchema Schematic File Version 4\nEELAYER 30 0\nEELAYER END\n$EndSCHEMATC\n');
write('bad/newer.kicad_sch', '(kicad_sch (version 20260830) (generator "eeschema"))');
write('bad/legacy.kicad_sch', 'EESchema Schematic File Version 4\nEELAYER 30 0\nEELAYER END\n$EndSCHEMATC\n');
write('bad/png.kicad_sch', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
write('bad/board.kicad_sch', '(kicad_pcb (version 20211014) (generator pcbnew))\n');
write('bad/old.kicad_sch', '(kicad_sch (version 20100101) (generator eeschema))\n');
write('bad/trailing.kicad_sch', '(kicad_sch (version 20211123) (generator eeschema)) (extra)\n');
const sheet = (file: string) =>
  `(kicad_sch (version 20211123) (generator eeschema)\n  (sheet (at 0 0) (size 10 10) (uuid 1)\n    (property "Sheet name" "s" (id 0) (at 0 0 0))\n    (property "Sheet file" "${file}" (id 1) (at 0 0 0))\n  )\n)\n`;
write('bad/missing-sheet.kicad_sch', sheet('nowhere.kicad_sch'));
write('bad/escape-sheet.kicad_sch', sheet('../../outside/x.kicad_sch'));
write('bad/loop.kicad_sch', sheet('loop.kicad_sch'));
fs.mkdirSync(path.join(base, 'outside'));
fs.writeFileSync(path.join(base, 'outside/x.kicad_sch'), good);
fs.symlinkSync(path.join(base, 'outside/x.kicad_sch'), path.join(ws, 'bad/link.kicad_sch'));

const CASES: [string, RegExp][] = [
  [
    'bad/truncated.kicad_sch',
    /bad\/truncated\.kicad_sch: not a readable KiCad schematic: line \d+: unexpected end of file/,
  ],
  [
    'bad/legacy.kicad_sch',
    /bad\/legacy\.kicad_sch: a legacy schematic \(EESchema Schematic File Version 4, written by KiCad 5\).*opening the project in KiCad 6 or later/,
  ],
  // A KiCad 5 .sch by its own name: the format version and how to convert it (run_erc's schema says it too).
  ['bad/legacy.sch', /KiCad 5.*opening .*in KiCad 6 or later/],
  ['bad/newer.kicad_sch', /bad\/newer\.kicad_sch: schematic version 20260830 was written by a KiCad newer than 9\.0/],
  ['bad/png.kicad_sch', /bad\/png\.kicad_sch: not a readable KiCad schematic: line 1: not an S-expression/],
  ['bad/board.kicad_sch', /bad\/board\.kicad_sch: not a KiCad schematic: the file starts with \(kicad_pcb/],
  ['bad/old.kicad_sch', /bad\/old\.kicad_sch: schematic version 20100101 predates KiCad 6/],
  [
    'bad/trailing.kicad_sch',
    /bad\/trailing\.kicad_sch: not a readable KiCad schematic: line 1: text after the closing/,
  ],
  ['bad/missing-sheet.kicad_sch', /bad\/nowhere\.kicad_sch.*cannot be read: ENOENT/],
  ['bad/escape-sheet.kicad_sch', /outside the workspace/],
  ['bad/loop.kicad_sch', /bad\/loop\.kicad_sch includes itself/],
  ['bad/link.kicad_sch', /schematic_path/],
  ['../outside/x.kicad_sch', /outside the workspace/],
  ['bad/nothing.kicad_sch', /cannot be read: ENOENT/],
  ['bad/board.kicad_pcb', /kicad_sch/],
];
const TOOLS: [string, Record<string, unknown>][] = [
  ['eda.export_netlist', { format: 'kicad', output_path: 'out/n.net' }],
  ['eda.export_bom', { output_path: 'out/b.csv' }],
  ['eda.get_pin_mapping', {}],
  ['eda.run_erc', {}],
];

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'tools,adapter:eda', env: { SERVICE_WORKSPACE: ws } });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(base, { recursive: true, force: true });
});

describe.each(TOOLS)('%s with a broken or hostile schematic', (tool, extra) => {
  it.each(CASES)('%s', async (file, message) => {
    const before = fs.readdirSync(ws, { recursive: true }).length;
    const o = await callTool(t.node.broker, tool, { schematic_path: file, ...extra });
    const issues = refusedIssues(o);
    expect(issues.map((i) => i.message).join('\n')).toMatch(message);
    expect(fs.readdirSync(ws, { recursive: true }).length).toBe(before);
    expect(fs.readdirSync(path.join(base, 'outside'))).toEqual(['x.kicad_sch']);
  });
});
