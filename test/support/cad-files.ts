import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes a STEP file with gmsh's OpenCASCADE kernel (`gmsh x.geo -0 -format step`): `body` holds `.geo` commands such as
 * `Box(1) = {0,0,0, 10,10,10};`. Each volume becomes one solid (no boolean unless the body asks for one).
 */
export async function gmshStep(dir: string, name: string, body: string): Promise<string> {
  const geo = path.join(dir, `${name}.geo`);
  const out = path.join(dir, `${name}.step`);
  await fs.writeFile(geo, `SetFactory("OpenCASCADE");\n${body}\n`);
  await run('gmsh', [geo, '-0', '-format', 'step', '-o', out], { env: { ...process.env, DISPLAY: '' } });
  return out;
}

/** `.geo` commands for an assembly of `n` separate parts: plates with a boss, rings and balls on a grid. */
export function assemblyGeo(n: number): string {
  const lines: string[] = [];
  for (let k = 0; k < n; k++) {
    const [x, y] = [(k % 8) * 60, Math.floor(k / 8) * 60];
    const t = k + 1;
    if (k % 4 === 0) lines.push(`Box(${t}) = {${x}, ${y}, 0, 50, 50, 8};`);
    else if (k % 4 === 1) lines.push(`Cylinder(${t}) = {${x + 25}, ${y + 25}, 8, 0, 0, 20, 10};`);
    else if (k % 4 === 2) lines.push(`Torus(${t}) = {${x + 25}, ${y + 25}, 30, 12, 3};`);
    else lines.push(`Sphere(${t}) = {${x + 10}, ${y + 10}, 14, 4};`);
  }
  return lines.join('\n');
}

/** A STEP assembly with part names and colours (replicad's `exportSTEP`): a red `plate` and a green `pin`. */
export async function namedColouredStep(): Promise<Buffer> {
  const { default: ocFactory } = await import('replicad-opencascadejs');
  const replicad = await import('replicad');
  replicad.setOC(await ocFactory({ print: () => undefined, printErr: () => undefined }));
  const plate = replicad.makeBaseBox(60, 30, 5);
  const pin = replicad.makeCylinder(4, 20, [10, 0, 5]);
  const blob = replicad.exportSTEP([
    { shape: plate, name: 'plate', color: '#ff0000' },
    { shape: pin, name: 'pin', color: '#00ff00' },
  ]);
  return Buffer.from(await blob.arrayBuffer());
}

const pad = (s: string | number, w: number) => String(s).padStart(w);
const num = (v: number) => (Number.isInteger(v) ? `${v}.` : String(v));

/** Splits a parameter record at commas into lines of at most `width` characters. */
function wrap(record: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const part of record.split(/(?<=[,;])/)) {
    if (line.length + part.length > width) {
      out.push(line);
      line = '';
    }
    line += part;
  }
  if (line) out.push(line);
  return out;
}

/**
 * An IGES 5.3 file (fixed 80-column records) of a box `a × b × c` mm made of six bilinear NURBS patches (entity 128), for
 * conversion tests: gmsh 4.8 cannot write IGES, so the test writes the format itself.
 */
export function igesBox(a: number, b: number, c: number): string {
  const faces: number[][][] = [
    [
      [0, 0, 0],
      [0, b, 0],
      [a, 0, 0],
      [a, b, 0],
    ],
    [
      [0, 0, c],
      [a, 0, c],
      [0, b, c],
      [a, b, c],
    ],
    [
      [0, 0, 0],
      [a, 0, 0],
      [0, 0, c],
      [a, 0, c],
    ],
    [
      [0, b, 0],
      [0, b, c],
      [a, b, 0],
      [a, b, c],
    ],
    [
      [0, 0, 0],
      [0, 0, c],
      [0, b, 0],
      [0, b, c],
    ],
    [
      [a, 0, 0],
      [a, b, 0],
      [a, 0, c],
      [a, b, c],
    ],
  ];
  const start = ['box made of six NURBS patches'];
  const global = wrap(
    '1H,,1H;,7Hservice,7Hbox.igs,7Hservice,7Hservice,32,38,6,308,15,7Hservice,1.,2,2HMM,1,1.,15H20261122.000000,1.E-6,1000.,4Htest,7Hservice,11,0,15H20261122.000000;',
    72,
  );
  const dir: string[] = [];
  const par: string[] = [];
  faces.forEach((f, k) => {
    const dSeq = 2 * k + 1;
    const record = `128,1,1,1,1,0,0,1,0,0,0.,0.,1.,1.,0.,0.,1.,1.,1.,1.,1.,1.,${f.flat().map(num).join(',')},0.,1.,0.,1.;`;
    const lines = wrap(record, 64);
    const first = par.length + 1;
    for (const l of lines) par.push(`${l.padEnd(64)} ${pad(dSeq, 7)}`);
    dir.push(
      `${pad(128, 8)}${pad(first, 8)}${pad(0, 8)}${pad(0, 8)}${pad(0, 8)}${pad(0, 8)}${pad(0, 8)}${pad(0, 8)}00000000`,
    );
    dir.push(
      `${pad(128, 8)}${pad(0, 8)}${pad(0, 8)}${pad(lines.length, 8)}${pad(0, 8)}${' '.repeat(16)}${pad('FACE', 8)}${pad(k + 1, 8)}`,
    );
  });
  const section = (lines: string[], letter: string) => lines.map((l, i) => `${l.padEnd(72)}${letter}${pad(i + 1, 7)}`);
  const terminate = `S${pad(start.length, 7)}G${pad(global.length, 7)}D${pad(dir.length, 7)}P${pad(par.length, 7)}`;
  return (
    [
      ...section(start, 'S'),
      ...section(global, 'G'),
      ...section(dir, 'D'),
      ...section(par, 'P'),
      ...section([terminate], 'T'),
    ].join('\n') + '\n'
  );
}
