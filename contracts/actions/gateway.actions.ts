import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ToolProgressEventSchema } from './adapters.actions.ts';

/** Actions of the `gateway` actor that other actors call back: progress of a call whose stream this node holds. */
export const GatewayActions = {
  toolProgress: defineAction('gateway.toolProgress', ToolProgressEventSchema, z.object({ delivered: z.boolean() })),
} as const;
