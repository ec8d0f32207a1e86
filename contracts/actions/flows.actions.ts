import { defineAction } from '../define.ts';
import { CompileIntentRequestSchema, CompiledIntentSchema } from '../intent.ts';

/** Bus actions of the `flows` actor: the deterministic intent compiler (`POST /v1/design-flows/intent`, `flow.compile_intent`). */
export const FlowsActions = {
  compileIntent: defineAction('flows.compileIntent', CompileIntentRequestSchema, CompiledIntentSchema),
} as const;
