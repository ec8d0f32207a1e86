export { createSolverAdapter } from './solver.adapter.ts';
export { createSimFieldPool, type SimFieldPool } from './pool.ts';
export { onPath } from './ccx.ts';
export { MATERIALS, resolveMaterial } from './materials.ts';
