export { createCadscriptAdapter } from './cadscript.adapter.ts';
