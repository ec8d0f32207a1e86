export { createFlowAdapter } from './flow.adapter.ts';
