import fs from 'node:fs';
import path from 'node:path';

// Schematics each just over one limit of workers/eda/limits.ts (and under the others), written from code.

const HEAD = '(kicad_sch (version 20211123) (generator eeschema)\n  (uuid 00000000-0000-0000-0000-000000000000)\n';
const sheet = (k: number, file: string) =>
  `  (sheet (at 0 0) (size 10 10) (uuid 5ee7-${k})\n` +
  `    (property "Sheet name" "s${k}" (id 0) (at 0 0 0))\n` +
  `    (property "Sheet file" "${file}" (id 1) (at 0 0 0)))\n`;
const sheetsOf = (count: number, file: string, extra = '') =>
  `${HEAD}${Array.from({ length: count }, (_, k) => sheet(k, file)).join('')}${extra})\n`;
/** A list the reader keeps but no step of the expansion reads: `count` + 1 tokens of almost no work. */
const filler = (count: number) => `  (filler${' a'.repeat(count)})\n`;

/** Root file, and the limit its refusal names (a pattern of the message). */
export const OVER_LIMIT: { limit: string; root: string; message: RegExp }[] = [
  {
    limit: 'depth',
    root: 'limits/depth/d-0.kicad_sch',
    message: /nested more than 32 levels deep \(limit depth = 32\)/,
  },
  {
    limit: 'tokens',
    root: 'limits/tokens/big.kicad_sch',
    message: /more than 5000000 S-expression tokens in the design's files \(limit tokens = 5000000\)/,
  },
  {
    limit: 'expanded_tokens',
    root: 'limits/expanded/top.kicad_sch',
    message: /expands to more than 20000000 S-expression tokens \(limit expanded_tokens = 20000000\)/,
  },
  {
    limit: 'pins',
    root: 'limits/pins/top.kicad_sch',
    message: /more than 200000 pins placed in the design \(limit pins = 200000\)/,
  },
];

/** Writes the OVER_LIMIT designs under `root/limits/`. */
export function writeOverLimit(root: string): void {
  const files: Record<string, string> = {};
  // 34 files of one sheet each: 33 levels below the root, 34 instances.
  for (let l = 0; l < 34; l++) files[`limits/depth/d-${l}.kicad_sch`] = sheetsOf(1, `d-${l + 1}.kicad_sch`);
  files['limits/depth/d-34.kicad_sch'] = `${HEAD})\n`;
  // 5.1 M tokens in one 10 MB file.
  files['limits/tokens/big.kicad_sch'] = `${HEAD}${filler(5_100_000)})\n`;
  // 100 x 90 = 9,000 instances (of 10,000 allowed) of a 2,513-token sheet: 22.7 M tokens after expansion.
  files['limits/expanded/top.kicad_sch'] = sheetsOf(100, 'mid.kicad_sch');
  files['limits/expanded/mid.kicad_sch'] = sheetsOf(90, 'leaf.kicad_sch');
  files['limits/expanded/leaf.kicad_sch'] = `${HEAD}${filler(2_500)})\n`;
  // 201 instances of a sheet holding one unannotated 1,000-pin part (U?: not one part): 201,000 pins.
  const pins = Array.from(
    { length: 1000 },
    (_, k) => `(pin passive line (at ${k} 0 0) (length 0) (number "${k + 1}"))`,
  );
  const lib = `  (lib_symbols (symbol "l:P" (in_bom yes) (on_board yes) (symbol "P_0_1"\n${pins.join('\n')})))\n`;
  const part = `  (symbol (lib_id "l:P") (at 0 0 0) (unit 1) (uuid u1) (property "Reference" "U?" (id 0) (at 0 0 0)))\n`;
  files['limits/pins/top.kicad_sch'] = sheetsOf(201, 'leaf.kicad_sch');
  files['limits/pins/leaf.kicad_sch'] = `${HEAD}${lib}${part})\n`;
  // A 16 MB quoted string of escapes: inside every limit, a valid (empty) schematic.
  files['limits/escapes/escapes.kicad_sch'] = `${HEAD}  (text "${'\\\\.'.repeat(8_000_000)}")\n)\n`;
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}
