export { createCadscriptAdapter } from './cadscript.adapter.ts';
export { createCadAdapter, checkKernel, type CadToolDeps } from './common.ts';
