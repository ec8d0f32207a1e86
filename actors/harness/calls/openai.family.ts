import type OpenAI from 'openai';
import type { ChatMessage, Completion, StopReason, ToolOffer } from '../../../contracts/harness-calls.ts';
import type { CallUsage } from '../../../contracts/harness-calls.ts';
import { openaiClient } from './clients.ts';
import { HarnessCallError } from './errors.ts';
import { isFirstParty } from './family-fit.ts';
import { parseToolArguments } from './tool-calls.ts';
import { NO_USAGE, type CallProgress, type CompleteRequest } from './types.ts';
import type { Watchdog } from './watchdog.ts';

type Params = Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, 'stream'>;
type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type WireUsage = OpenAI.CompletionUsage;

/** Conversation messages on the chat-completions wire: tool calls as function calls, results as `tool` messages. */
function toWire(m: ChatMessage): Message {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant': {
      const calls = m.tool_calls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: m.content ?? '' };
      return {
        role: 'assistant',
        content: m.content ? m.content : null,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
  }
}

const toolsToWire = (tools: readonly ToolOffer[]) =>
  tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.input_schema },
  }));

/** finish_reason -> the family-neutral stop reason (`function_call` is the pre-tools name of a tool call). */
function stopReason(finish: string | null | undefined): StopReason {
  if (finish === 'stop') return 'end_turn';
  if (finish === 'tool_calls' || finish === 'function_call') return 'tool_use';
  if (finish === 'length') return 'max_tokens';
  return 'other';
}

function usageOf(u: WireUsage | null | undefined): CallUsage {
  if (!u) return NO_USAGE;
  return {
    prompt_tokens: u.prompt_tokens ?? 0,
    completion_tokens: u.completion_tokens ?? 0,
    cached_input_tokens: u.prompt_tokens_details?.cached_tokens ?? 0,
    usage_reported: true,
  };
}

function body(req: CompleteRequest): Params {
  const tools = req.tools ?? [];
  // api.openai.com's reasoning models refuse max_tokens; most compatible servers (Ollama, vLLM) know only max_tokens.
  const limit = isFirstParty('openai_compatible', req.provider.baseURL)
    ? { max_completion_tokens: req.maxTokens }
    : { max_tokens: req.maxTokens };
  return {
    model: req.model,
    messages: req.messages.map(toWire),
    ...(tools.length > 0 ? { tools: toolsToWire(tools) } : {}),
    ...(req.maxTokens !== undefined ? limit : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
  };
}

interface Slot {
  id: string;
  name: string;
  args: string[];
}

/** One call on the OpenAI chat-completions wire (streamed unless `stream: false`), assembled family-neutrally. */
export async function completeOpenAI(
  req: CompleteRequest,
  watch: Watchdog,
  progress: CallProgress,
): Promise<Completion> {
  const client = openaiClient(req.provider);
  const opts = { signal: watch.signal };
  if (req.stream === false) {
    const res = await client.chat.completions.create({ ...body(req), stream: false }, opts);
    const choice = res.choices[0];
    progress.usage = usageOf(res.usage);
    progress.model = res.model;
    if (!choice) throw HarnessCallError.of('data', 'the provider answered with no choice');
    const calls = (choice.message.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c] : []));
    return {
      text: choice.message.content ?? '',
      tool_calls: calls.map((c) => ({
        id: c.id,
        name: c.function.name,
        arguments: parseToolArguments(c.function.name, c.function.arguments),
      })),
      stop_reason: stopReason(choice.finish_reason),
      usage: progress.usage,
      model: res.model,
    };
  }

  const stream = await client.chat.completions.create(
    { ...body(req), stream: true, stream_options: { include_usage: true } },
    opts,
  );
  const text: string[] = [];
  const slots = new Map<number, Slot>();
  let finish: string | null | undefined;
  watch.touch();
  for await (const chunk of stream) {
    watch.touch();
    if (chunk.model) progress.model = chunk.model;
    if (chunk.usage) progress.usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta;
    if (delta?.content) {
      text.push(delta.content);
      req.onText?.(delta.content);
    }
    for (const tc of delta?.tool_calls ?? []) {
      let slot = slots.get(tc.index);
      if (!slot) slots.set(tc.index, (slot = { id: '', name: '', args: [] }));
      if (tc.id) slot.id = tc.id;
      if (tc.function?.name && !slot.name) slot.name = tc.function.name;
      if (tc.function?.arguments) slot.args.push(tc.function.arguments);
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  watch.check();
  if (!finish)
    throw HarnessCallError.of('data', 'the stream ended before the model finished (truncated)', { retryable: true });
  const ordered = [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  return {
    text: text.join(''),
    tool_calls: ordered.map((s, i) => ({
      id: s.id || `call_${i}`,
      name: s.name,
      arguments: parseToolArguments(s.name, s.args.join('')),
    })),
    stop_reason: stopReason(finish),
    usage: progress.usage ?? NO_USAGE,
    model: progress.model ?? req.model,
  };
}
