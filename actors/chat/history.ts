import type { ChatMessageRecord } from '../../contracts/chat.ts';
import type { HarnessCallParams } from '../../contracts/harness-calls.ts';

type Message = HarnessCallParams['messages'][number];

/** A token estimate good enough for budgets (about 4 characters a token in English and JSON). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

const tokensOf = (m: ChatMessageRecord): number =>
  estimateTokens(m.content) + (m.tool_calls.length ? estimateTokens(JSON.stringify(m.tool_calls)) : 0) + 4;

/** A stored message as the harness takes it. */
export function toModelMessage(m: ChatMessageRecord): Message {
  if (m.role === 'user') return { role: 'user', content: m.content };
  if (m.role === 'tool')
    return { role: 'tool', tool_call_id: m.tool_call_id ?? '', content: m.content, is_error: false };
  return { role: 'assistant', content: m.content, tool_calls: m.tool_calls };
}

/**
 * The history sent with a turn (SERVICE_HISTORY_TOKENS): the newest exchanges that fit the budget, whole. An exchange
 * starts at a user message, so an assistant's tool calls never travel without their results; the last exchange (the
 * message being answered) always goes, even over the budget.
 */
export function historyWithin(messages: readonly ChatMessageRecord[], budgetTokens: number) {
  let start = messages.length;
  let used = 0;
  let kept = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    used += tokensOf(messages[i]!);
    if (messages[i]!.role !== 'user') continue;
    if (kept > 0 && used > budgetTokens) break;
    start = i;
    kept++;
  }
  const sent = messages.slice(start);
  return {
    messages: sent.map(toModelMessage),
    tokens: sent.reduce((n, m) => n + tokensOf(m), 0),
    dropped: start,
  };
}
