import type { HarnessCallParams, ToolOffer } from '../../../contracts/harness-calls.ts';

type Message = HarnessCallParams['messages'][number];

/** Past this share of the model's context window a turn folds its older tool results (issue 16, "History budget"). */
export const FOLD_AT = 0.6;
/** Ids kept from one folded result, at most. */
const MAX_IDS = 40;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID_KEY = /(?:^|_)(?:id|ids|key|ref)$/;

/** A token estimate of a request (about 4 characters a token in English and JSON), messages and tool offer. */
export function promptTokens(messages: readonly Message[], offers: readonly ToolOffer[]): number {
  let chars = 0;
  for (const m of messages) chars += m.content?.length ?? 0;
  for (const m of messages)
    if (m.role === 'assistant' && m.tool_calls?.length) chars += JSON.stringify(m.tool_calls).length;
  for (const o of offers) chars += o.name.length + o.description.length + JSON.stringify(o.input_schema).length;
  return Math.ceil(chars / 4);
}

/** Every id a result names: values of fields named id, *_id, key, *_ref (and lists of them), and uuids anywhere. */
export function idsIn(value: unknown, out = new Set<string>(), field = ''): Set<string> {
  if (out.size >= MAX_IDS) return out;
  if (typeof value === 'string') {
    if (ID_KEY.test(field) || UUID.test(value)) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) idsIn(v, out, field);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) idsIn(v, out, k);
  }
  return out;
}

/** One tool result folded: its tool and status and the ids it named, so the reply can still cite them. */
function folded(content: string): string {
  let env: Record<string, unknown> = {};
  try {
    env = JSON.parse(content) as Record<string, unknown>;
  } catch {
    // not an envelope: only the note is kept
  }
  return JSON.stringify({
    folded: true,
    tool: env.tool ?? null,
    status: env.status ?? null,
    ids: [...idsIn(env.data ?? env)].slice(0, MAX_IDS),
    note: 'this earlier tool result was folded to save context; call the tool again if its details are needed',
  });
}

/**
 * The messages to send, with every tool result before `keepFrom` (an index into `messages`) folded; the rest, the
 * latest step's results, go whole. Pure: the turn keeps the whole results for what it answers and stores.
 */
export function foldToolResults(messages: readonly Message[], keepFrom: number): Message[] {
  return messages.map((m, i) =>
    i < keepFrom && m.role === 'tool' && !m.content.startsWith('{"folded":true')
      ? { ...m, content: folded(m.content) }
      : m,
  );
}
