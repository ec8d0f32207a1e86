import type { AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import type { ProviderFamily } from '../../../contracts/harness.ts';
import type { HarnessCallParams, HarnessCallResult } from '../../../contracts/harness-calls.ts';
import type {
  HarnessTurnParams,
  HarnessTurnResult,
  TurnProgress,
  TurnTools,
} from '../../../contracts/harness-turns.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import { FOLD_AT, foldToolResults, promptTokens } from './fold.ts';
import { planToolOffer, type OfferedTool, type ToolOfferPlan } from '../tools/offer.ts';
import { runSearchTools, SEARCH_TOOLS, SEARCH_TOOLS_ID } from '../tools/search.ts';
import { approvalPolicy, ToolTurn, toolMessages, type ToolObservation } from '../tools/step.ts';

export interface TurnDeps {
  /** One routed model call (`harness.call`'s rules, in process); `onText` receives its streamed text. */
  call(p: HarnessCallParams, onText?: (delta: string) => void): Promise<HarnessCallResult>;
  /** The turn's progress as it happens (text, tool calls before they run, their results); `step` counts from 1. */
  progress?(event: TurnProgress['event'], step: number): void;
  /** The family of the role's primary route, for the tool offer (null: no route; the first call says why). */
  family(p: HarnessTurnParams): Promise<ProviderFamily | null>;
  /** The registry's listing (`tools.list`). */
  listTools(profile?: string): Promise<AnnouncedTool[]>;
  /** Runs one registry tool for the turn's caller (`tools.call`). */
  callTool(tools: TurnTools): (toolId: string, args: Record<string, unknown>) => Promise<ToolResult>;
  exemptLocalWrites: boolean;
  log: { warn(obj: object, msg: string): void };
}

/** The offer of a turn: the listing (filtered), search_tools, the cap; re-planned when search_tools pins new tools. */
class TurnOffer {
  plan: ToolOfferPlan = { offers: [], byName: new Map(), dropped: [], refused: [] };
  readonly byName = new Map<string, OfferedTool>();
  private readonly pinned = new Set<string>();
  private stale = true;
  private readonly listed: readonly AnnouncedTool[];
  private readonly family: ProviderFamily;
  private readonly log: TurnDeps['log'];
  private readonly run_id: string | null;

  constructor(listed: readonly AnnouncedTool[], family: ProviderFamily, log: TurnDeps['log'], run_id: string | null) {
    this.listed = listed;
    this.family = family;
    this.log = log;
    this.run_id = run_id;
  }

  /** The offer for the next step; the ToolTurn reads `byName`, kept the same map. */
  current(): ToolOfferPlan {
    if (this.stale) {
      this.plan = planToolOffer(this.listed, {
        family: this.family,
        native: [SEARCH_TOOLS],
        pinned: this.pinned,
        log: this.log,
        run_id: this.run_id,
      });
      this.byName.clear();
      for (const [k, v] of this.plan.byName) this.byName.set(k, v);
      this.stale = false;
    }
    return this.plan;
  }

  search(args: Record<string, unknown>): ToolResult {
    return runSearchTools(this.listed, args, (ids) => {
      const offered = new Set([...this.byName.values()].map((t) => t.id));
      for (const id of ids) {
        this.pinned.add(id);
        if (!offered.has(id)) this.stale = true;
      }
    });
  }
}

async function offerFor(p: HarnessTurnParams, deps: TurnDeps): Promise<TurnOffer | null> {
  if (!p.tools) return null;
  const family = await deps.family(p);
  if (!family) return null;
  let listed = await deps.listTools(p.tools.profile);
  if (p.tools.only) {
    const only = new Set(p.tools.only);
    listed = listed.filter((t) => only.has(t.tool_id));
  }
  if (p.tools.exclude) {
    const exclude = new Set(p.tools.exclude);
    listed = listed.filter((t) => !exclude.has(t.tool_id));
  }
  if (p.tools.exclude_commit_capable) {
    const commits = (t: AnnouncedTool) => Object.hasOwn((t.input_schema.properties ?? {}) as object, 'commit');
    listed = listed.filter((t) => !commits(t));
  }
  return new TurnOffer(listed, family, deps.log, p.run_id);
}

function observed(o: ToolObservation) {
  const e = o.envelope;
  return {
    call_id: o.call_id,
    name: o.name,
    tool_id: o.tool_id,
    status: e.status,
    error: e.status === 'error' ? e.error : null,
    cached: e.status === 'success' && e.cached === true,
    ran: o.ran,
  };
}

/**
 * One agent turn: the model is called with the conversation and the offer; the tool calls it asks for run as one
 * step (ToolTurn: rules 1-4, the caller's hold policy of rule 9) and their envelopes go back as tool messages; again
 * until it answers without tool calls or `max_steps` calls were made. A failed model call ends the turn with its
 * classified failure and what the turn added so far. Tool calls asked of a turn without tools are answered as
 * unknown tools, never run.
 */
export async function runTurn(p: HarnessTurnParams, deps: TurnDeps): Promise<HarnessTurnResult> {
  const offer = await offerFor(p, deps);
  const viaRegistry = p.tools ? deps.callTool(p.tools) : null;
  const turn = new ToolTurn({
    byName: offer?.byName ?? new Map(),
    callTool: (id, args) => viaRegistry!(id, args),
    runNative: async (id, args) => {
      if (id !== SEARCH_TOOLS_ID || !offer) throw new Error(`no harness tool ${id}`);
      return offer.search(args);
    },
    requiresApproval: (tool, args) => requiresApproval(tool, args),
  });
  const added: HarnessCallParams['messages'] = [];
  const result: HarnessTurnResult = {
    outcome: 'step_limit',
    text: '',
    messages: [],
    steps: [],
    usage: { calls: 0, prompt_tokens: 0, completion_tokens: 0, cached_input_tokens: 0 },
    failure: null,
    tools_dropped: [],
    progress_events: 0,
    folded_steps: 0,
  };
  const { tools: _tools, max_steps, progress_topic: _topic, context_tokens, ...fields } = p;
  let lastStepAt = 0; // index in the conversation where the latest step's tool results begin
  const requiresApproval = p.tools ? approvalPolicy(p.tools.caller, deps.exemptLocalWrites) : () => false;
  for (let step = 0; step < max_steps; step++) {
    const plan = offer?.current();
    result.tools_dropped = plan?.dropped ?? [];
    const onText = deps.progress && ((delta: string) => deps.progress!({ type: 'text', delta }, step + 1));
    const offers = plan?.offers ?? [];
    let messages = [...p.messages, ...added];
    if (context_tokens && promptTokens(messages, offers) > FOLD_AT * context_tokens) {
      const sent = foldToolResults(messages, lastStepAt);
      if (sent.some((m, i) => m !== messages[i])) result.folded_steps++;
      messages = sent;
    }
    const res = await deps.call({ ...fields, messages, tools: offers }, onText);
    result.usage.calls += res.attempts.length;
    if (res.outcome === 'failed') {
      Object.assign(result, { outcome: 'failed', failure: res.failure });
      break;
    }
    const c = res.completion;
    result.usage.prompt_tokens += c.usage.prompt_tokens;
    result.usage.completion_tokens += c.usage.completion_tokens;
    result.usage.cached_input_tokens += c.usage.cached_input_tokens;
    result.text = c.text;
    added.push({ role: 'assistant', content: c.text, tool_calls: c.tool_calls });
    const stepOut = { record_id: res.record_id, route: res.route, stop_reason: c.stop_reason, tool_calls: [] };
    result.steps.push(stepOut);
    if (c.tool_calls.length === 0) {
      result.outcome = 'done';
      break;
    }
    for (const tc of c.tool_calls) {
      const tool = offer?.byName.get(tc.name);
      deps.progress?.(
        {
          type: 'tool_call',
          call_id: tc.id,
          name: tc.name,
          tool_id: tool?.id ?? null,
          arguments: tc.arguments,
          requires_approval: tool ? requiresApproval(tool, tc.arguments) : false,
        },
        step + 1,
      );
    }
    const observations = await turn.runStep(c.tool_calls);
    stepOut.tool_calls = observations.map(observed) as never;
    const answers = toolMessages(observations);
    lastStepAt = p.messages.length + added.length;
    answers.forEach((m, i) =>
      deps.progress?.({ type: 'tool_result', call: observed(observations[i]!), content: m.content }, step + 1),
    );
    added.push(...answers);
  }
  result.messages = added;
  return result;
}
