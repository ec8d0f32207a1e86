export { createCadkernelAdapter } from './cadkernel.adapter.ts';
