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
  /** JSON-RPC id to give the request (a hold names it to withdraw it later); unset = the gateway picks one. */
  request_id: z.string().optional(),
  /**
   * A held call's question: only when the gateway asks this session for decisions (the caller's
   * `decision_elicitation`), on the stream the spec's held-call rules pick.
   */
  hold: z.boolean().optional(),
});
export const ToolRequestResultSchema = z.discriminatedUnion('delivered', [
  z.object({ delivered: z.literal(true), result: z.unknown() }),
  z.object({ delivered: z.literal(false), reason: z.string() }),
]);
export type ToolRequestResult = z.infer<typeof ToolRequestResultSchema>;

/** Withdraws a server request the client has not answered: `notifications/cancelled` goes where the request went. */
export const ToolWithdrawSchema = z.object({ call_id: z.string(), request_id: z.string(), reason: z.string() });

/** Broadcast event: the stream of an in-flight call closed before its answer (a hold stops waiting). Best effort. */
export const TOOLCALL_CLOSED_EVENT = 'toolcall.closed';

/**
 * The reply channel of a running tool call: progress, notifications and server-to-client requests travel back to the
 * caller's stream through it, addressed by the call id on the node the call named as its reply address
 * (`progress_node`). Served by whoever holds the caller's stream (the gateway actor); only the adapter kit's
 * caller port (actors/adapters/kit/caller-port.ts) sends on it, so adapters and holds never name the gateway.
 * The action names are the bus wire names and stay as they are.
 */
export const CallerChannel = {
  progress: defineAction('gateway.toolProgress', ToolProgressEventSchema, z.object({ delivered: z.boolean() })),
  notify: defineAction('gateway.toolNotify', ToolNotifySchema, z.object({ delivered: z.boolean() })),
  request: defineAction('gateway.toolRequest', ToolRequestSchema, ToolRequestResultSchema),
  withdraw: defineAction('gateway.toolWithdraw', ToolWithdrawSchema, z.object({ delivered: z.boolean() })),
} as const;
