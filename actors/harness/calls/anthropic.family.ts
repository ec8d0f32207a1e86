import type Anthropic from '@anthropic-ai/sdk';
import type { CallUsage, ChatMessage, Completion, StopReason } from '../../../contracts/harness-calls.ts';
import { anthropicClient } from './clients.ts';
import { HarnessCallError } from './errors.ts';
import { parseToolArguments } from './tool-calls.ts';
import { NO_USAGE, type CallProgress, type CompleteRequest } from './types.ts';
import type { Watchdog } from './watchdog.ts';

type MessageParam = Anthropic.Messages.MessageParam;
type Block = Anthropic.Messages.ContentBlockParam;
type Params = Omit<Anthropic.Messages.MessageCreateParamsNonStreaming, 'stream'>;

/** The default max_tokens: the messages API requires one on every request. */
const DEFAULT_MAX_TOKENS = 4096;

/**
 * Conversation messages on the messages wire: system prompts go to `system`, tool calls are `tool_use` blocks of the
 * assistant, and tool results are `tool_result` blocks of the next user message (all results answering one
 * assistant turn in one user message, as the API requires).
 */
function toWire(messages: readonly ChatMessage[]): { system: string | undefined; messages: MessageParam[] } {
  const system: string[] = [];
  const out: MessageParam[] = [];
  let results: Block[] | undefined;
  for (const m of messages) {
    if (m.role !== 'tool') results = undefined;
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        out.push({ role: 'user', content: m.content });
        break;
      case 'assistant': {
        const blocks: Block[] = m.content ? [{ type: 'text', text: m.content }] : [];
        for (const c of m.tool_calls ?? [])
          blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
        out.push({ role: 'assistant', content: blocks.length > 0 ? blocks : '' });
        break;
      }
      case 'tool': {
        const block: Block = { type: 'tool_result', tool_use_id: m.tool_call_id, content: m.content };
        if (m.is_error) block.is_error = true;
        if (results) results.push(block);
        else out.push({ role: 'user', content: (results = [block]) });
        break;
      }
    }
  }
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: out };
}

function body(req: CompleteRequest): Params {
  const { system, messages } = toWire(req.messages);
  const tools = req.tools ?? [];
  return {
    model: req.model,
    max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages,
    ...(system !== undefined ? { system } : {}),
    ...(tools.length > 0
      ? {
          tools: tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: { type: 'object' as const, ...t.input_schema },
          })),
        }
      : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
  };
}

/** stop_reason -> the family-neutral stop reason (a stop sequence ends the turn as the caller asked). */
function stopReason(r: string | null | undefined): StopReason {
  if (r === 'end_turn' || r === 'stop_sequence') return 'end_turn';
  if (r === 'tool_use') return 'tool_use';
  if (r === 'max_tokens') return 'max_tokens';
  return 'other';
}

interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The whole prompt (uncached + cache writes + cache reads), so the cached part is a part of prompt_tokens. */
function usageOf(u: WireUsage): CallUsage {
  const read = u.cache_read_input_tokens ?? 0;
  return {
    prompt_tokens: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + read,
    completion_tokens: u.output_tokens ?? 0,
    cached_input_tokens: read,
    usage_reported: true,
  };
}

/** message_delta's usage is cumulative; fields it leaves null keep message_start's values. */
function merge(into: WireUsage, u: WireUsage): void {
  for (const k of Object.keys(u) as (keyof WireUsage)[]) if (typeof u[k] === 'number') into[k] = u[k];
}

interface Slot {
  id: string;
  name: string;
  json: string[];
}

/** One call on the Anthropic messages wire (streamed unless `stream: false`), assembled family-neutrally. */
export async function completeAnthropic(
  req: CompleteRequest,
  watch: Watchdog,
  progress: CallProgress,
): Promise<Completion> {
  const client = anthropicClient(req.provider);
  const opts = { signal: watch.signal };
  if (req.stream === false) {
    const res = await client.messages.create({ ...body(req), stream: false }, opts);
    progress.usage = usageOf(res.usage);
    progress.model = res.model;
    const text = res.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const calls = res.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    return {
      text,
      tool_calls: calls.map((b) => ({
        id: b.id,
        name: b.name,
        arguments: parseToolArguments(b.name, JSON.stringify(b.input)),
      })),
      stop_reason: stopReason(res.stop_reason),
      usage: progress.usage,
      model: res.model,
    };
  }

  const stream = await client.messages.create({ ...body(req), stream: true }, opts);
  const text: string[] = [];
  const slots = new Map<number, Slot>();
  const usage: WireUsage = {};
  let reason: string | null | undefined;
  let stopped = false;
  watch.touch();
  for await (const ev of stream) {
    watch.touch();
    switch (ev.type) {
      case 'message_start':
        progress.model = ev.message.model;
        merge(usage, ev.message.usage);
        progress.usage = usageOf(usage);
        break;
      case 'content_block_start':
        if (ev.content_block.type === 'tool_use') {
          slots.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: [] });
        } else if (ev.content_block.type === 'text' && ev.content_block.text) {
          text.push(ev.content_block.text);
          req.onText?.(ev.content_block.text);
        }
        break;
      case 'content_block_delta':
        if (ev.delta.type === 'text_delta') {
          text.push(ev.delta.text);
          req.onText?.(ev.delta.text);
        } else if (ev.delta.type === 'input_json_delta') {
          slots.get(ev.index)?.json.push(ev.delta.partial_json);
        }
        break;
      case 'message_delta':
        reason = ev.delta.stop_reason;
        merge(usage, ev.usage);
        progress.usage = usageOf(usage);
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  watch.check();
  if (!stopped)
    throw HarnessCallError.of('data', 'the stream ended before message_stop (truncated)', { retryable: true });
  const ordered = [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  return {
    text: text.join(''),
    tool_calls: ordered.map((s) => ({
      id: s.id,
      name: s.name,
      arguments: parseToolArguments(s.name, s.json.join('')),
    })),
    stop_reason: stopReason(reason),
    usage: progress.usage ?? NO_USAGE,
    model: progress.model ?? req.model,
  };
}
