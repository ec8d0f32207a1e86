export { createSolverAdapter } from './solver.adapter.ts';
export { onPath } from './ccx.ts';
export { MATERIALS, resolveMaterial } from './materials.ts';
