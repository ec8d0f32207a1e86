import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KICAD6_DEMOS, kicadDemos } from '../../../support/kicad-demos.ts';

/**
 * KiCad 6's demo projects (Debian bookworm's kicad-demos 6.0.11, fetched into test/fixtures/kicad6 by
 * `npm run fixtures:kicad6`), read in place and copied into a test workspace: the expectations of the tests that use
 * them were read from these files. KiCad 9's demos are judged against kicad-cli in eda-vs-kicad-cli*.test.ts.
 */
export const DEMOS = kicadDemos(6) ?? KICAD6_DEMOS;

/** The 12 demo projects with both a schematic and a board: folder and file stem. */
export const BOARD_PROJECTS: [string, string][] = [
  ['complex_hierarchy', 'complex_hierarchy'],
  ['custom_pads_test', 'custom_pads_test'],
  ['ecc83', 'ecc83-pp'],
  ['ecc83', 'ecc83-pp_v2'],
  ['flat_hierarchy', 'flat_hierarchy'],
  ['interf_u', 'interf_u'],
  ['kit-dev-coldfire-xilinx_5213', 'kit-dev-coldfire-xilinx_5213'],
  ['pic_programmer', 'pic_programmer'],
  ['stickhub', 'StickHub'],
  ['test_pads_inside_pads', 'test_pads_inside_pads'],
  ['test_xil_95108', 'carte_test'],
  ['video', 'video'],
];

/** A fresh workspace holding copies of the demos' KiCad files (and whatever else `extra` names). */
export function demoWorkspace(prefix: string, folders = [...new Set(BOARD_PROJECTS.map(([d]) => d))]): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const d of folders) {
    fs.mkdirSync(path.join(ws, d), { recursive: true });
    for (const f of fs.readdirSync(path.join(DEMOS, d)))
      if (/\.(kicad_sch|kicad_pcb|kicad_pro|lib|sub|mod|cir)$/i.test(f))
        fs.copyFileSync(path.join(DEMOS, d, f), path.join(ws, d, f));
  }
  return ws;
}
