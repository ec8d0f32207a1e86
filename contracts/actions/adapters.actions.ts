import { PrincipalSchema } from '../principal.ts';
import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ToolResultSchema } from '../tool-result.ts';
import { AdapterHealthSchema, ToolAnnotationsSchema, ToolManifestSchema } from '../tools.ts';

/**
 * Bus contract of every adapter actor (`adapters.<id>`, ARCHITECTURE "Actors"): `manifest`, `health`, `invoke`.
 * The registry (`tools` actor) gathers manifests as adapters join the bus and dispatches calls to `invoke`.
 */

/** Who is calling a tool: a remote MCP client (HTTP/SSE), a local stdio client, or the service itself (flow phases). */
export const CallerKindSchema = z.enum(['remote', 'stdio', 'service']);
export type CallerKind = z.infer<typeof CallerKindSchema>;

export const CallerSchema = z.object({
  kind: CallerKindSchema,
  transport: z.enum(['http', 'sse', 'stdio', 'internal']),
  session_id: z.string().optional(),
  client: z.string().optional(),
  /** Project the call context is scoped to (a flow run's project, a session bound to a project). */
  project_id: z.string().optional(),
  /** Design-flow run the call belongs to: definition writes become drafts of this run. */
  run_id: z.string().optional(),
  /** The run's ownership epoch the calling phase execution was started under (twin writes are fenced by it). */
  run_epoch: z.number().int().optional(),
  /** The run's phase making the call (recorded on what the call writes). */
  phase: z.string().optional(),
  /** The attempt of that phase (recorded on the drafts the call writes: its gate commits only its own attempt's). */
  run_attempt: z.number().int().min(1).optional(),
  /** The session declared elicitation at initialize (2025-06-18 or later); a person's decision also needs decision_elicitation. */
  can_elicit: z.boolean().optional(),
  /**
   * Set by the gateway when a person's decision (a held call, a gate) may be asked in this session's client
   * (SERVICE_ELICITATION_APPROVALS): whose answer it is and whether that person is verified. Absent = such decisions
   * go to the Approvals queue, whatever the client declared (ISSUE 27 #2: no client approves its own call).
   */
  decision_elicitation: z
    .object({ approver: z.string(), verified: z.boolean(), client_id: z.string().nullable().optional() })
    .optional(),
  /** The verified principal of the call's OAuth access token (issue 29 point 3); unset for the shared key or stdio. */
  principal: PrincipalSchema.optional(),
});
export type Caller = z.infer<typeof CallerSchema>;

/** One tool as an adapter announces it: the spec's manifest plus MCP annotations and an optional title. */
export const AnnouncedToolSchema = ToolManifestSchema.extend({
  title: z.string().optional(),
  annotations: ToolAnnotationsSchema,
  /** False for tools that run in-process only with their adapter's state (never retried elsewhere). */
  idempotent: z.boolean(),
  /** Listed and callable by its bare `name` as well as its canonical id (fixtures whose names an outside suite fixes). */
  bare_name: z.boolean().optional(),
});
export type AnnouncedTool = z.infer<typeof AnnouncedToolSchema>;

export const AdapterManifestSchema = z.object({
  adapter_id: z.string(),
  version: z.string(),
  capability: z.string(),
  tools: z.array(AnnouncedToolSchema),
});
export type AdapterManifest = z.infer<typeof AdapterManifestSchema>;

/**
 * A tool call's arguments on the bus: opaque JSON, not re-validated by any contract on the way. The one check is the
 * registry's (`tools` actor: NUL/depth refusal, then the tool's JSON Schema); what the adapter receives has passed it.
 * Only the top level is looked at (an object of any values), so the shape still has a JSON Schema of its own.
 */
export const ToolArgumentsSchema = z.record(z.string(), z.unknown());

export const InvokeParamsSchema = z.object({
  tool_id: z.string(),
  /** Checked by the registry against the tool's input_schema, defaults filled in; the adapter does not re-check. */
  arguments: ToolArgumentsSchema,
  call_id: z.string(),
  timeout_ms: z.number().int().positive(),
  caller: CallerSchema,
  /** Node hosting the caller's stream: progress is sent there (`gateway.toolProgress`). */
  progress_node: z.string().optional(),
});
export type InvokeParams = z.infer<typeof InvokeParamsSchema>;

/**
 * Reserved key of a tool's returned data: an array of MCP content blocks (text, image, audio, resource, resource_link)
 * that the MCP dialect returns as the result's `content`, as is, and leaves out of `structuredContent`.
 */
export const TOOL_CONTENT_KEY = '_content';

/** Broadcast event: stop the call if this node runs it (a client's `notifications/cancelled`). Best effort. */
export const TOOLCALL_CANCEL_EVENT = 'toolcall.cancel';
export const ToolcallCancelSchema = z.object({ call_id: z.string(), reason: z.string().optional() });

/** An adapter's health with the reason when it is not healthy (a missing engine names the program). */
export const AdapterHealthReportSchema = AdapterHealthSchema.extend({
  message: z.string().optional(),
  /** Tools of a degraded adapter that cannot run (their engine is missing); the adapter's other tools still work. */
  unavailable_tools: z.array(z.string()).optional(),
});
export type AdapterHealthReport = z.infer<typeof AdapterHealthReportSchema>;

function buildAdapterActions(id: string) {
  const base = `adapters.${id}`;
  return {
    manifest: defineAction(`${base}.manifest`, z.object({}), AdapterManifestSchema),
    health: defineAction(`${base}.health`, z.object({}), AdapterHealthReportSchema),
    invoke: defineAction(`${base}.invoke`, InvokeParamsSchema, ToolResultSchema),
  };
}
const builtActions = new Map<string, ReturnType<typeof buildAdapterActions>>();

/** The action contracts of adapter `id`, built once per id (every tool call dispatches through them; zod schemas are costly to build). */
export function adapterActions(id: string): ReturnType<typeof buildAdapterActions> {
  let acts = builtActions.get(id);
  if (!acts) builtActions.set(id, (acts = buildAdapterActions(id)));
  return acts;
}

/** Progress of a running call, sent to the node holding the caller's stream. */
export const ToolProgressEventSchema = z.object({
  call_id: z.string(),
  progress: z.number().min(0).max(1),
  message: z.string().default(''),
  /** Set by a hold: the client sees `progress * total` of `total` (seconds of the hold window); unset = a fraction of 1. */
  total: z.number().positive().optional(),
});
export type ToolProgressEvent = z.infer<typeof ToolProgressEventSchema>;
