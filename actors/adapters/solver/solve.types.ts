import type { AnalysisType } from '../../../workers/simfield/select.ts';
import type { Material } from './materials.ts';

type Vec3 = [number, number, number];

/** One solve, as `run_fea` / `run_thermal` normalise their arguments. */
export interface SolveSpec {
  tool: 'run_fea' | 'run_thermal';
  analysis: AnalysisType;
  meshFile: string;
  loadCase: string;
  material: Material;
  /** Static/modal: the clamped set; thermal: the sink set. */
  fixedSet: string;
  /** Static: the loaded set; thermal: the heat source set. */
  loadSet: string | null;
  forceN: Vec3 | null;
  numModes: number;
  sinkTempC: number;
  powerW: number;
}
