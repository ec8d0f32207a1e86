import type { Context } from 'moleculer';
import { call } from '../../brokers/actions.ts';
import type { Infra } from '../../brokers/infra.ts';
import { HarnessCallsActions } from '../../contracts/actions/harness-calls.actions.ts';
import type { ChatEventType, ChatThread } from '../../contracts/chat.ts';
import type { HarnessTurnResult, TurnProgress } from '../../contracts/harness-turns.ts';
import type { CallPrincipal } from '../../contracts/principal.ts';
import type { ChatStore, NewMessage } from './chat.store.ts';
import { groundReply, TWIN_WRITE_TOOLS } from './grounding.ts';
import { estimateTokens, historyWithin } from './history.ts';

/** Project tools that change persistent state: left out of the offer when SERVICE_CHAT_PROJECT_WRITES=0. */
export const PROJECT_WRITE_TOOLS = ['project.create', 'project.update', 'project.delete'];

export const SYSTEM_PROMPT =
  'You are the engineering assistant of a hardware design service. Use the tools to read and change the project; ' +
  'say only what the tools confirm. A write a person must approve waits for them.';

export interface TurnRunnerDeps {
  infra: Infra;
  store: ChatStore;
  /** Appends an event of the thread (serialised per thread by the caller). */
  emit(threadId: string, turnId: string, type: ChatEventType, data: object): Promise<void>;
  /** Counts a grounding banner (service_chat_ungrounded_claim_total). */
  ungrounded(kind: string): void;
}

/**
 * One running chat turn: receives the harness's progress for its topic (the turn id) and turns it into stream events,
 * in order; `waitFor(n)` resolves once `n` progress events have arrived (over NATS they may trail the turn's answer).
 */
export class RunningTurn {
  private received = 0;
  private waiting: { n: number; resolve(): void } | undefined;
  private readonly deps: TurnRunnerDeps;
  readonly thread: ChatThread;
  readonly id: string;
  /** Who the chat request came from (its bearer's principal, decision 0113): named on the turn's ledger rows. */
  readonly principal: CallPrincipal | null;

  constructor(deps: TurnRunnerDeps, thread: ChatThread, id: string, principal: CallPrincipal | null = null) {
    this.deps = deps;
    this.thread = thread;
    this.id = id;
    this.principal = principal;
  }

  async onProgress(p: TurnProgress): Promise<void> {
    const e = p.event;
    const emit = (type: ChatEventType, data: object) => this.deps.emit(this.thread.id, this.id, type, data);
    if (e.type === 'text') await emit('text.delta', { step: p.step, delta: e.delta });
    else if (e.type === 'tool_call') {
      const { type: _t, ...call } = e;
      await emit('tool.call', { step: p.step, ...call });
      if (e.requires_approval) {
        const run_id = this.thread.run_id ?? this.id;
        await emit('tool.approval_requested', { run_id, tool: e.tool_id ?? e.name, arguments: e.arguments });
      }
    } else await emit('tool.result', { step: p.step, ...e.call, content: e.content });
    this.received++;
    if (this.waiting && this.received >= this.waiting.n) this.waiting.resolve();
  }

  /** Resolves when `n` progress events arrived, or after `ms` (a lost event must not hold the turn open). */
  waitFor(n: number, ms: number): Promise<void> {
    if (this.received >= n) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.waiting = { n, resolve: () => (clearTimeout(timer), resolve()) };
    });
  }
}

/** A step's own bounds: its model call (the harness's 120 s default) and its tools' deadline (120 s). */
const STEP_BUDGET_MS = 240_000;
/** Slack past the hold window (the holds reaper ends a hold first, then the turn still has its next model call). */
const HOLD_SLACK_MS = 60_000;

/**
 * The deadline of a turn's `harness.turn` call (issue 27): one held write's whole window plus every step's own
 * bounds. Moleculer passes what is left of it down to `tools.call` and `holds.request`, so the default request
 * timeout (SERVICE_REQUEST_TIMEOUT_MS) would otherwise deny a held write after 10 s.
 */
export const turnTimeoutMs = (holdSeconds: number, maxSteps: number): number =>
  holdSeconds * 1000 + HOLD_SLACK_MS + maxSteps * STEP_BUDGET_MS;

/**
 * Runs one chat turn to its end: context.stats, the harness's agent loop for the `chat` role (the person's caller:
 * approval mode hold), the grounding guard over the reply, the messages stored, context.stats `final`, and
 * `agent.done`; a failure or a raised error is `notify_error` before `agent.done`. Never throws.
 */
export async function runChatTurn(ctx: Context, deps: TurnRunnerDeps, turn: RunningTurn): Promise<void> {
  const { infra, store } = deps;
  const { thread, id: turnId } = turn;
  const emit = (type: ChatEventType, data: object) => deps.emit(thread.id, turnId, type, data);
  const config = infra.config;
  let status: 'done' | 'failed' = 'failed';
  const added: NewMessage[] = [];
  let raised: { message: string; class?: string } | undefined;
  try {
    const stored = await store.messages(thread.id);
    const history = historyWithin(stored, config.SERVICE_HISTORY_TOKENS);
    await emit('context.stats', {
      phase: 'initial',
      history_messages: history.messages.length,
      history_tokens: history.tokens,
      history_dropped: history.dropped,
      budget_tokens: config.SERVICE_HISTORY_TOKENS,
    });
    const exclude = [
      ...(config.SERVICE_CHAT_TWIN_WRITES ? [] : [...TWIN_WRITE_TOOLS]),
      ...(config.SERVICE_CHAT_PROJECT_WRITES ? [] : PROJECT_WRITE_TOOLS),
    ];
    const caller = {
      kind: 'remote' as const,
      transport: 'internal' as const,
      client: `chat:${thread.id}`,
      ...(thread.project_id ? { project_id: thread.project_id } : {}),
    };
    // The turn outlives the postMessage request that started it: it is called with that request as its parent
    // (request id, meta, tracing, call depth) but not under its deadline, which Moleculer would pass down to the
    // held write (`ctx.call` shrinks a child's timeout to what is left of the parent's).
    const r: HarnessTurnResult = await call(
      ctx.broker,
      HarnessCallsActions.turn,
      {
        role: 'chat',
        project_id: thread.project_id,
        conversation_id: thread.id,
        principal: turn.principal,
        messages: [{ role: 'system', content: SYSTEM_PROMPT }, ...history.messages],
        tools: {
          caller,
          exclude,
          // SPEC chat rule 6: a commit-capable skill is gated like the twin writes.
          exclude_commit_capable: !config.SERVICE_CHAT_TWIN_WRITES,
          // A held write waits this long for its person, then is denied (SPEC: 1,800 s by default).
          hold_seconds: config.SERVICE_CHAT_APPROVAL_TIMEOUT_SECONDS,
        },
        max_steps: config.SERVICE_CHAT_MAX_STEPS,
        progress_topic: turnId,
        context_tokens: config.SERVICE_CHAT_CONTEXT_TOKENS,
      } as never,
      // A held write waits for its person: the bus call outlives the hold window, not the default request timeout.
      {
        timeout: turnTimeoutMs(config.SERVICE_CHAT_APPROVAL_TIMEOUT_SECONDS, config.SERVICE_CHAT_MAX_STEPS),
        retries: 0,
      },
    );
    await turn.waitFor(r.progress_events, 10_000);
    for (const m of r.messages) {
      if (m.role === 'assistant') added.push({ role: 'assistant', content: m.content ?? '', tool_calls: m.tool_calls });
      else if (m.role === 'tool') added.push({ role: 'tool', content: m.content, tool_call_id: m.tool_call_id });
    }
    if (r.outcome === 'failed') {
      raised = { message: r.failure?.message ?? 'the model call failed', class: r.failure?.class };
    } else {
      const calls = r.steps.flatMap((s) => s.tool_calls);
      const sources = [
        SYSTEM_PROMPT,
        ...stored.map((m) => m.content),
        ...r.messages.filter((m) => m.role === 'tool' && !m.is_error).map((m) => m.content),
      ];
      const grounded = groundReply({ reply: r.text, toolCalls: calls, sources });
      for (const b of grounded.banners) deps.ungrounded(b.kind);
      const last = added.findLast((m) => m.role === 'assistant');
      if (last) last.content = grounded.text;
      await emit('message', {
        role: 'assistant',
        content: grounded.text,
        banners: grounded.banners,
        outcome: r.outcome,
      });
      status = 'done';
    }
    const trace = added.reduce((n, m) => n + estimateTokens(m.content), history.tokens);
    await emit('context.stats', { phase: 'final', trace_tokens: trace, steps: r.steps.length, usage: r.usage });
  } catch (err) {
    infra.log.warn({ err, thread_id: thread.id, turn_id: turnId }, 'chat turn raised');
    raised = { message: (err as Error).message };
  }
  // SPEC rule 8: the exception text right before agent.done.
  if (raised) await emit('notify_error', raised).catch(() => {});
  try {
    await store.endTurn(thread.id, turnId, added, status, infra.now());
  } catch (err) {
    infra.log.error({ err, thread_id: thread.id, turn_id: turnId }, 'chat turn not stored');
  }
  await emit('agent.done', { turn_id: turnId, status }).catch(() => {});
}
