export { createHarnessService } from './harness.service.ts';
export type { HarnessContext, HarnessPart } from './context.ts';
