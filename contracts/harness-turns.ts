import { z } from 'zod';
import { CallerSchema } from './actions/adapters.actions.ts';
import {
  ChatMessageSchema,
  HarnessCallFailureSchema,
  HarnessCallFieldsSchema,
  PER_CALL_ROUTE_ISSUE,
  perCallRouteComplete,
  ServedRouteSchema,
  StopReasonSchema,
} from './harness-calls.ts';

/**
 * Wire shapes of `harness.turn`: one agent turn, the model called in steps until it answers without tool calls. Each
 * step is one routed call (`harness.call`'s rules); the tools it asks for run through the registry with the caller's
 * hold policy (SPEC "Chat and harness rules" 1-5 and 9), and their envelopes go back to the model as tool messages.
 */

/** Which tools the model may call and for whom it acts: `remote` (a person's chat, mode hold) or `service` (a phase, mode forward). */
export const TurnToolsSchema = z.object({
  caller: CallerSchema,
  /** Only the tools of this registry profile (TOOLS.md); absent: the whole listing. */
  profile: z.string().min(1).max(100).optional(),
  /** Only these tool ids, of the listing. */
  only: z.array(z.string().min(1).max(200)).max(500).optional(),
  /** Never these tool ids (a read-only chat leaves its write tools out). */
  exclude: z.array(z.string().min(1).max(200)).max(500).optional(),
  /** Leave out every tool whose input has a `commit` field (a commit-capable skill; SPEC chat rule 6). */
  exclude_commit_capable: z.boolean().default(false),
  /** Each tool call's own deadline. */
  timeout_seconds: z.number().int().min(1).max(3600).default(120),
  /** How long a held call waits for its person before it is denied (absent: the holds actor's default window). */
  hold_seconds: z.number().int().min(1).max(86_400).optional(),
});
export type TurnTools = z.infer<typeof TurnToolsSchema>;

/** Params of `harness.turn`: `harness.call`'s routing fields, the conversation so far, the tools, a step bound. */
export const HarnessTurnParamsSchema = HarnessCallFieldsSchema.omit({ tools: true })
  .extend({
    tools: TurnToolsSchema.optional(),
    /** Model calls at most; a model still asking for tools after them ends the turn `step_limit`. */
    max_steps: z.number().int().min(1).max(50).default(8),
    /**
     * When set, the turn's progress is broadcast as `harness.turnProgress` events carrying this topic, in order:
     * streamed text, each step's tool calls before they run (approval-requiring ones flagged), their results.
     */
    progress_topic: z.string().min(1).max(200).optional(),
    /**
     * The model's context window in tokens: past 60% of it, a step's request carries the turn's older tool results
     * folded (tool, status and the ids they named), the latest step's whole. Absent: nothing is folded.
     */
    context_tokens: z.number().int().min(1_000).max(10_000_000).optional(),
  })
  .refine(perCallRouteComplete, PER_CALL_ROUTE_ISSUE);
export type HarnessTurnParams = z.infer<typeof HarnessTurnParamsSchema>;

/** One tool call of a step as it went: its envelope's status and error type; `ran`: executed by this call, not cached. */
export const TurnToolCallSchema = z.object({
  call_id: z.string(),
  name: z.string(),
  tool_id: z.string().nullable(),
  status: z.enum(['success', 'error']),
  error: z.string().nullable(),
  cached: z.boolean(),
  ran: z.boolean(),
});

/** One step: the model call that served it (its ledger record and route) and the tool calls it asked for. */
export const TurnStepSchema = z.object({
  record_id: z.string(),
  route: ServedRouteSchema,
  stop_reason: StopReasonSchema,
  tool_calls: z.array(TurnToolCallSchema),
});

export const TurnUsageSchema = z.object({
  calls: z.number().int().min(0),
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  cached_input_tokens: z.number().int().min(0),
});

/**
 * What `harness.turn` answers. `done`: the model answered without tool calls; `step_limit`: it still asked for tools
 * after `max_steps` calls; `failed`: a model call failed (`failure`, classified). `messages` are what the turn added to
 * the conversation (assistant and tool messages, in order), kept on failure too; `text` is the last assistant text.
 */
export const HarnessTurnResultSchema = z.object({
  outcome: z.enum(['done', 'step_limit', 'failed']),
  text: z.string(),
  messages: z.array(ChatMessageSchema),
  steps: z.array(TurnStepSchema),
  usage: TurnUsageSchema,
  failure: HarnessCallFailureSchema.nullable(),
  /** Tool ids the offer left out (the OpenAI-compatible family's cap, rule 5). */
  tools_dropped: z.array(z.string()),
  /** How many `harness.turnProgress` events the turn broadcast (a listener waits for them all before it ends the turn). */
  progress_events: z.number().int().min(0),
  /** Steps whose request carried older tool results folded (0: none was). */
  folded_steps: z.number().int().min(0),
});
export type HarnessTurnResult = z.infer<typeof HarnessTurnResultSchema>;

/** One progress event of a turn (`harness.turnProgress`), numbered from 1 within the turn so a listener can order them. */
export const TurnProgressSchema = z.object({
  topic: z.string(),
  n: z.number().int().min(1),
  step: z.number().int().min(1),
  event: z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), delta: z.string() }),
    z.object({
      type: z.literal('tool_call'),
      call_id: z.string(),
      name: z.string(),
      tool_id: z.string().nullable(),
      arguments: z.record(z.string(), z.unknown()),
      requires_approval: z.boolean(),
    }),
    z.object({ type: z.literal('tool_result'), call: TurnToolCallSchema, content: z.string() }),
  ]),
});
export type TurnProgress = z.infer<typeof TurnProgressSchema>;
export const TURN_PROGRESS_EVENT = 'harness.turnProgress';
