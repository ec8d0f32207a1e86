import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Hostile KiCad 6 schematics of issue 27 finding 5, written from code into a temporary workspace: small files whose
// hierarchy or parts expand into work far beyond any real design (the largest KiCad demo, video, has 8 sheet
// instances, 2113 pins and 158 pins on its largest part).

const HEAD = '(kicad_sch (version 20211123) (generator eeschema)\n  (uuid 00000000-0000-0000-0000-000000000000)\n';

/** One sheet symbol naming `file`, with a uuid unique in its file. */
const sheet = (k: number, file: string) =>
  `  (sheet (at 0 0) (size 10 10) (uuid 5ee7-${k})\n` +
  `    (property "Sheet name" "s${k}" (id 0) (at 0 0 0))\n` +
  `    (property "Sheet file" "${file}" (id 1) (at 0 0 0)))\n`;

const sheetsOf = (count: number, file: string) =>
  `${HEAD}${Array.from({ length: count }, (_, k) => sheet(k, file)).join('')})\n`;

const LEAF = `${HEAD}  (label "x" (at 0 0 0) (effects (font (size 1 1))) (uuid 1abe1))\n)\n`;

/** Three files of 300 sheets each naming the next: 300 x 300 = 90,000 sheet instances from about 106 KB. */
function wide(dir: string): Record<string, string> {
  return {
    [`${dir}/wide.kicad_sch`]: sheetsOf(300, 'wide-1.kicad_sch'),
    [`${dir}/wide-1.kicad_sch`]: sheetsOf(300, 'wide-2.kicad_sch'),
    [`${dir}/wide-2.kicad_sch`]: LEAF,
  };
}

/** A chain of `levels` files of two sheets each naming the next level: 2^levels instances of the last file. */
function chain(dir: string, levels: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let l = 0; l < levels; l++) files[`${dir}/chain-${l}.kicad_sch`] = sheetsOf(2, `chain-${l + 1}.kicad_sch`);
  files[`${dir}/chain-${levels}.kicad_sch`] = LEAF;
  return files;
}

/**
 * One part, U1, of 1,000 units of a symbol with 1,000 pins (pins shared by every unit): a part with 1 M pins from
 * about 200 KB.
 */
function millionPins(dir: string): Record<string, string> {
  const pins = Array.from(
    { length: 1000 },
    (_, k) => `        (pin passive line (at ${k} 0 0) (length 0) (name "p${k}") (number "${k + 1}"))\n`,
  ).join('');
  const lib = `  (lib_symbols\n    (symbol "hostile:P" (in_bom yes) (on_board yes)\n      (symbol "P_0_1"\n${pins}      )\n    )\n  )\n`;
  const units = Array.from(
    { length: 1000 },
    (_, u) =>
      `  (symbol (lib_id "hostile:P") (at 0 ${u * 10} 0) (unit ${u + 1}) (in_bom yes) (on_board yes) (uuid 5e-${u})\n` +
      `    (property "Reference" "U1" (id 0) (at 0 0 0))\n    (property "Value" "P" (id 1) (at 0 0 0)))\n`,
  ).join('');
  return { [`${dir}/pins.kicad_sch`]: `${HEAD}${lib}${units})\n` };
}

/** The hostile designs: root file, what it is, and the limit its refusal must name. */
export const HOSTILE: { name: string; root: string; limit: RegExp }[] = [
  { name: '300 x 300 sheet instances', root: 'hostile/wide/wide.kicad_sch', limit: /10000 sheet instances/ },
  { name: 'a 16-level chain of two sheets', root: 'hostile/chain16/chain-0.kicad_sch', limit: /10000 sheet instances/ },
  { name: 'a 30-level chain of two sheets', root: 'hostile/chain30/chain-0.kicad_sch', limit: /10000 sheet instances/ },
  { name: 'a part with 1 M pins', root: 'hostile/pins/pins.kicad_sch', limit: /10000 pins on one part/ },
];

/** A temporary workspace holding the hostile designs under `hostile/`; `remove` deletes it. */
export function hostileWorkspace(): { root: string; bytes: Record<string, number>; remove(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'eda-hostile-'));
  const files = {
    ...wide('hostile/wide'),
    ...chain('hostile/chain16', 16),
    ...chain('hostile/chain30', 30),
    ...millionPins('hostile/pins'),
  };
  const bytes: Record<string, number> = {};
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
    const dir = path.dirname(rel);
    bytes[dir] = (bytes[dir] ?? 0) + Buffer.byteLength(text);
  }
  return { root, bytes, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/**
 * A sheet inside every limit whose connectivity costs minutes: 150,000 slanted wires and 150,000 junctions off them
 * (8 MB, 2.7 M tokens); each junction is tested against every slanted wire, 2.25e10 tests. Only the call's deadline
 * bounds it. Written to `rel` under `root`.
 */
export function writeSlowSheet(root: string, rel: string): void {
  const n = 150_000;
  const wires = Array.from({ length: n }, (_, k) => `  (wire (pts (xy ${k} 0) (xy ${k + 1} 1)))\n`).join('');
  const junctions = Array.from({ length: n }, (_, k) => `  (junction (at ${k} 5))\n`).join('');
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), `${HEAD}${wires}${junctions})\n`);
}
