import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../kit/tool.ts';

/**
 * What `kicad-cli pcb export gerbers|drill` wrote, read back as the tool's file list: KiCad names a Gerber after the
 * board's user layer name (pic_programmer's F.Cu is `top_layer`), so each Gerber's layer is taken from the job file
 * KiCad writes beside them (its `FileFunction`, Gerber X2's), never guessed from the file name.
 */

/** The non-copper layers plotted, in the order listed after the copper stack. */
export const GERBER_LAYERS = ['F.Paste', 'B.Paste', 'F.Silkscreen', 'B.Silkscreen', 'F.Mask', 'B.Mask', 'Edge.Cuts'];

/** The copper layers front to back (F.Cu, In1.Cu..., B.Cu), whatever order the board file lists them in. */
export function copperStack(copper: readonly string[]): string[] {
  const rank = (l: string) => (l === 'F.Cu' ? 0 : l === 'B.Cu' ? 1e6 : Number(/^In(\d+)\.Cu$/.exec(l)?.[1] ?? 5e5));
  return [...copper].sort((a, b) => rank(a) - rank(b));
}

/** A Gerber X2 file function (`Copper,L2,Inr`, `SolderMask,Top`, `Profile,NP`) as KiCad's layer name. */
export function layerOfFunction(fn: string, copperCount: number): string | undefined {
  const [kind, a, b] = fn.split(',');
  const side = (x?: string) => (x === 'Top' ? 'F' : x === 'Bot' ? 'B' : undefined);
  if (kind === 'Copper') {
    const n = Number(/^L(\d+)$/.exec(a ?? '')?.[1]);
    if (!Number.isInteger(n) || n < 1 || n > copperCount) return undefined;
    return n === 1 ? 'F.Cu' : n === copperCount ? 'B.Cu' : `In${n - 1}.Cu`;
  }
  if (kind === 'Profile') return 'Edge.Cuts';
  const name = { SolderPaste: 'Paste', Legend: 'Silkscreen', SolderMask: 'Mask' }[kind ?? ''];
  const s = side(a) ?? side(b);
  return name && s ? `${s}.${name}` : undefined;
}

export interface FabFile {
  abs: string;
  layer: string;
  kind: 'gerber' | 'drill' | 'job';
}

/** The files of `outDir`: Gerbers in stack order (copper, then GERBER_LAYERS), then NPTH and PTH drill, then the job. */
export async function fabricationFiles(outDir: string, copperCount: number): Promise<FabFile[]> {
  const names = await fs.readdir(outDir);
  const jobName = names.find((n) => n.endsWith('-job.gbrjob'));
  if (!jobName) throw new ToolError('KiCad wrote no Gerber job file');
  const job = JSON.parse(await fs.readFile(path.join(outDir, jobName), 'utf8')) as {
    FilesAttributes?: { Path?: unknown; FileFunction?: unknown }[];
  };
  const gerbers: FabFile[] = [];
  for (const a of job.FilesAttributes ?? []) {
    const layer = typeof a.FileFunction === 'string' ? layerOfFunction(a.FileFunction, copperCount) : undefined;
    // Only a plain file name of the output folder, one KiCad wrote.
    if (typeof a.Path !== 'string' || a.Path !== path.basename(a.Path) || !names.includes(a.Path) || !layer)
      throw new ToolError("KiCad's Gerber job file lists a file it could not describe", { file: JSON.stringify(a) });
    gerbers.push({ abs: path.join(outDir, a.Path), layer, kind: 'gerber' });
  }
  const order = [...Array.from({ length: copperCount }, (_, i) => layerOfFunction(`Copper,L${i + 1}`, copperCount)!)];
  const rank = (l: string) => {
    const i = [...copperStack(order), ...GERBER_LAYERS].indexOf(l);
    return i < 0 ? 1e6 : i;
  };
  gerbers.sort((x, y) => rank(x.layer) - rank(y.layer));
  const drills = names
    .filter((n) => n.endsWith('.drl'))
    .sort()
    .map((n): FabFile => ({
      abs: path.join(outDir, n),
      layer: n.endsWith('-NPTH.drl') ? 'NPTH' : 'PTH',
      kind: 'drill',
    }));
  return [...gerbers, ...drills, { abs: path.join(outDir, jobName), layer: '', kind: 'job' }];
}
