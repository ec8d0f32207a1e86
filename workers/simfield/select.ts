import type { FrdBlock, FrdFile } from './frd-parse.ts';

/** Analysis kinds of the solver tools and the field payload. */
export type AnalysisType = 'static_stress' | 'modal' | 'thermal';

/** The blocks a field is made of, per SPEC rule 10. */
export interface Selected {
  analysisType: AnalysisType;
  disp: FrdBlock | null;
  stress: FrdBlock | null;
  temp: FrdBlock | null;
  /** Modal: frequency per mode from the DISP blocks' `100C` values. */
  modes: { mode: number; frequency_hz: number }[];
  /** Step number of the selected blocks (static/thermal: the last step). */
  step: number;
}

const isModal = (b: FrdBlock) => b.analysis.toUpperCase() === 'MODAL' || b.mode !== null;

/** The analysis a `.frd` holds: heat when it has temperatures and no displacements, modal when blocks carry modes. */
export function detectAnalysis(f: FrdFile): AnalysisType {
  const names = new Set(f.blocks.map((b) => b.name));
  if (names.has('NDTEMP') && !names.has('DISP')) return 'thermal';
  if (f.blocks.some(isModal)) return 'modal';
  return 'static_stress';
}

const last = (bs: FrdBlock[], name: string) => {
  for (let i = bs.length - 1; i >= 0; i--) if (bs[i].name === name) return bs[i];
  return null;
};

/**
 * Static and thermal take the last block of each kind (a multi-step file repeats every block per step); modal takes
 * the first displacement block of mode 1 (checked, not assumed). A missing block is an error naming what is there.
 */
export function selectBlocks(f: FrdFile, analysisType: AnalysisType): Selected {
  const have = [...new Set(f.blocks.map((b) => b.name))].join(', ') || 'no result blocks';
  if (analysisType === 'thermal') {
    const temp = last(f.blocks, 'NDTEMP');
    if (!temp) throw new Error(`the .frd has no NDTEMP (temperature) block for a thermal analysis (it has ${have})`);
    return { analysisType, disp: null, stress: null, temp, modes: [], step: temp.step };
  }
  if (analysisType === 'modal') {
    const disps = f.blocks.filter((b) => b.name === 'DISP');
    if (!disps.length) throw new Error(`the .frd has no DISP block for a modal analysis (it has ${have})`);
    const first = disps.find((b) => b.mode === 1) ?? disps[0];
    const modes = disps.filter((b) => b.mode !== null).map((b) => ({ mode: b.mode!, frequency_hz: b.value }));
    return { analysisType, disp: first, stress: null, temp: null, modes, step: first.step };
  }
  const disp = last(f.blocks, 'DISP');
  if (!disp) throw new Error(`the .frd has no DISP block for a static analysis (it has ${have})`);
  const stress = last(f.blocks, 'STRESS');
  return { analysisType, disp, stress, temp: null, modes: [], step: disp.step };
}
