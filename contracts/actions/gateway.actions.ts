import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ToolProgressEventSchema } from './adapters.actions.ts';

/** A message a running tool sends to its caller's stream (e.g. `notifications/message` log lines). */
export const ToolNotifySchema = z.object({
  call_id: z.string(),
  method: z.string().regex(/^notifications\//),
  params: z.record(z.string(), z.unknown()),
});

/** A server-to-client request on behalf of a running call (elicitation, sampling); answers the client's result. */
export const ToolRequestSchema = z.object({
  call_id: z.string(),
  method: z.enum(['elicitation/create', 'sampling/createMessage', 'roots/list']),
  params: z.record(z.string(), z.unknown()),
});
export const ToolRequestResultSchema = z.discriminatedUnion('delivered', [
  z.object({ delivered: z.literal(true), result: z.unknown() }),
  z.object({ delivered: z.literal(false), reason: z.string() }),
]);
export type ToolRequestResult = z.infer<typeof ToolRequestResultSchema>;

/**
 * Actions of the `gateway` actor that other actors call back, always on the node holding the caller's stream
 * (`{ nodeID: progress_node }`): progress, notifications and server-to-client requests of a running call.
 */
export const GatewayActions = {
  toolProgress: defineAction('gateway.toolProgress', ToolProgressEventSchema, z.object({ delivered: z.boolean() })),
  toolNotify: defineAction('gateway.toolNotify', ToolNotifySchema, z.object({ delivered: z.boolean() })),
  toolRequest: defineAction('gateway.toolRequest', ToolRequestSchema, ToolRequestResultSchema),
} as const;
