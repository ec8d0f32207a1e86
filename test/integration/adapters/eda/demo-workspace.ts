import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** KiCad's demo projects (Debian kicad-demos), read in place and copied into a test workspace. */
export const DEMOS = '/usr/share/kicad/demos';

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
