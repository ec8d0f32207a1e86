import fs from 'node:fs/promises';
import path from 'node:path';
import { pcbnewScript, type StageEnv } from './route-stage.ts';

/** A pour's zones as KiCad fills them: layer and filled copper area. */
export interface PourResult {
  net: string;
  zones: { layer: string; filled_area_mm2: number }[];
  stitching_vias: number;
  stitching_vias_removed: number;
}

/**
 * Ground pours on both outer layers of a routed board, filled by KiCad 9's own zone filler (pcbnew ZONE_FILLER), and
 * stitching vias of the pour's net on a grid where both layers' fill holds them (pcbnew/pour_fill.py): null when the
 * board has no net of that name. `refill` only fills the zones again (after tracks were added to the poured board).
 */
export async function pourGround(
  env: StageEnv,
  input: string,
  output: string,
  opts: { net: string; pitchMm: number; refill?: boolean },
): Promise<PourResult | null> {
  const base = output.replace(/\.kicad_pcb$/, '');
  const options = `${base}.pour.json`;
  await fs.writeFile(options, JSON.stringify({ net: opts.net, pitch_mm: opts.pitchMm, refill: opts.refill ?? false }));
  const done = await pcbnewScript(env, 'pour_fill.py', [
    input,
    output,
    `${base}.pour.rpt`,
    `${base}.pour.out.json`,
    options,
  ]);
  if (done === 'nothing') return null;
  return JSON.parse(await fs.readFile(`${base}.pour.out.json`, 'utf8')) as PourResult;
}

/** The file name a stage's board takes in the call folder. */
export const stageFile = (dir: string, name: string) => path.join(dir, `${name}.kicad_pcb`);
