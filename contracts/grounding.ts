import { KEY_PREFIX } from './twin-keys.ts';

/**
 * The grounding guard after a chat turn (SPEC "Chat and harness rules" 7), also applied to a model-driven design-flow
 * phase's reply (actors/runs/phase-brain.ts); here so both actors share one copy. Pure: the reply, the turn's tool calls and
 * the texts a node id may come from in; banners out. No I/O, no clock: the chat actor counts each banner's kind on
 * `service_chat_ungrounded_claim_total{kind}` and lets `statusBanner` alone touch a design-flow phase status.
 *
 * Units. Fenced code blocks are dropped (code is not prose). Sentences end at a newline or at `.`, `!`, `?` followed
 * by white space (so `2.5 mm` and `bracket.step` stay whole); list bullets (`-`, `*`, `+`, `•`, `1.`, `1)`), heading
 * and quote marks are stripped. A sentence splits into clauses at `, ` `; ` `: `, a spaced dash and ` but `, so
 * "I exported the STEP file, but it isn't in the twin" is a claim and an honest negation, not one mixed sentence.
 *
 * A claim is a clause with a completion verb as a whole word (assembled, created, committed, recorded, generated,
 * built, added, designed, exported; "I've created", "has been committed", "was exported" all match) that is a
 * statement: not in a question (the sentence ends with `?`), and with no negation, plan or offer marker in the clause
 * (the lists below). Inline code is blanked before the test, so `created_at` or `status: committed` is no verb.
 * "then I" is deliberately no plan marker ("then I padded it" reports work); "then I'll" is caught by `'ll`.
 */

/** The metric's kinds, in banner order. */
export const GROUNDING_KINDS = ['no_tool_call', 'twin_write', 'node_id'] as const;
export type GroundingKind = (typeof GROUNDING_KINDS)[number];

export interface GroundingBanner {
  kind: GroundingKind;
  /** One line, `> ⚠ ...`. */
  text: string;
  /** node_id only: the unverified ids, in the order the reply quotes them. */
  ids?: string[];
}

export interface GroundingInput {
  reply: string;
  /** The turn's calls; `tool_id` null for the harness's own tools (they count for "a call succeeded"). */
  toolCalls: { tool_id: string | null; status: 'success' | 'error' }[];
  /** Texts a node id may be grounded in: successful calls' result JSON, user messages, system prompt, history, brief. */
  sources: string[];
}

export interface GroundingResult {
  /** The reply, with the banners (one line each) and a blank line before it when there are any. */
  text: string;
  banners: GroundingBanner[];
}

const VERB = /\b(?:assembled|created|committed|recorded|generated|built|added|designed|exported)\b/i;
/** not, n't, never, nothing, none, cannot, unable, failed to, "no ... was/were/is/are/has been/have been". */
const NEGATION =
  /\b(?:not|never|nothing|none|cannot|unable|failed to)\b|n['’]t\b|\bno\b.*\b(?:was|were|is|are|has been|have been)\b/i;
/** will, 'll, shall, going to, plan/planning/intend to, let me, let's, about to, "next step". */
const PLAN =
  /\b(?:will|shall|going to|gonna|plan to|planning to|intend to|let me|let['’]s|about to|next step)\b|['’]ll\b/i;
/** Offers and conditionals: should I, would (you like), can/could I, I/we can/could, want me to, "if you ..." and a
 *  clause that opens with if, once, unless, until, in case, as soon as ("Once the mesh is generated, ..."). */
const OFFER =
  /\b(?:should I|would|do you want|can I|could I|I can|I could|we can|we could|want me to|if you|happy to)\b|^(?:if|once|unless|until|in case|as soon as)\b/i;

/** Twin writes of the catalogue (TOOLS.md classes A and D); `twin.query_cypher` (R*) is a read unless mutations are
 *  permitted, which the call list cannot tell, so it never grounds a twin-write claim. */
export const TWIN_WRITE_TOOLS: ReadonlySet<string> = new Set([
  'twin.record_document',
  'twin.commit_geometry',
  'twin.stage_work_product_file',
  'twin.record_decision',
  'twin.record_constraint_set',
  'twin.record_engineering_entity',
  'twin.record_component_selection',
  'twin.propose_change',
  'twin.attempt_promotion',
  'twin.approve_design_loop',
  'twin.approve_engineering_change',
]);
/** A twin tool added later with a write verb in its name counts too. */
const TWIN_WRITE_PREFIX = /^twin\.(?:commit|record|create|update|stage|set|delete|link)_/;

/** Whether a tool id is a twin write (the list above, or a `twin.<write verb>_*` name). */
export const isTwinWriteTool = (toolId: string | null): boolean =>
  toolId !== null && (TWIN_WRITE_TOOLS.has(toolId) || TWIN_WRITE_PREFIX.test(toolId));

/**
 * Node-id shapes, for text quoted in backticks, "double", “curly” or 'single' quotes (single quotes only between
 * non-word characters, so apostrophes never open one): a uuid (node rows), a twin item key or ref with one of the
 * twin's key prefixes (`CAD-BRACKET-7K2Q`, `CS-LOADS-A1B2@3`; `ITM` for unknown types) or a requirement id
 * (`REQ-STRESS`, `REQ-ENV-1`). Other upper-case hyphenated words (`ISO-2768`, `M6-8G`) are standards, not ids.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY_PREFIXES = [...Object.values(KEY_PREFIX), 'ITM', 'REQ'].join('|');
const ITEM_KEY = new RegExp(`^(?:${KEY_PREFIXES})(?:-[A-Z0-9]+)+(?:@\\d+)?$`);
/** A CAD session's object ids (`part_N`, `sketch_N`, `body_N`, `assembly_N`): scratch, never a twin node. */
const SESSION_OBJECT = /^(?:part|sketch|body|assembly)_\d+$/;
/** A session object id is "presented as a node id" when its sentence speaks of a node or the twin. */
const NODE_TALK = /\bnode(?:s|_id)?\b|\btwin\b/i;
const QUOTED = /`([^`\n]+)`|"([^"\n]+)"|“([^”\n]+)”|(?<!\w)'([^'\s]+)'(?!\w)/g;

/** Sentences of a reply, markup stripped (see the file comment). */
export function sentencesOf(reply: string): string[] {
  return reply
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .split('\n')
    .map((line) => line.replace(/^\s*(?:>\s*)*(?:#+\s+)?(?:(?:[-*+•]|\d+[.)])\s+)?/, ''))
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((s) => s.trim())
    .filter(Boolean);
}

interface Clause {
  text: string;
  /** Not a question, negation, plan or offer. */
  statement: boolean;
  claim: boolean;
}

/** The clauses of one sentence, each judged a statement and a claim. */
function clausesOf(sentence: string): Clause[] {
  const question = sentence.endsWith('?');
  return sentence
    .split(/[,;:]\s+|\s+[—–-]\s+|\s+but\s+/i)
    .map((t) => t.trim())
    .filter(Boolean)
    .map((text) => {
      const prose = text.replace(/`[^`]*`/g, ' code ');
      const statement = !question && !NEGATION.test(prose) && !PLAN.test(prose) && !OFFER.test(prose);
      return { text, statement, claim: statement && VERB.test(prose) };
    });
}

/** The clauses of a reply that count as claims (exported for the table test and for logs). */
export const claimsOf = (reply: string): string[] =>
  sentencesOf(reply).flatMap((s) =>
    clausesOf(s)
      .filter((c) => c.claim)
      .map((c) => c.text),
  );

/**
 * A claimed twin write: a sentence with a claim whose statement clauses name the twin ("in the twin", "digital twin"),
 * or whose claim says "committed" while its statements name geometry, a revision or a baseline.
 */
function claimsTwinWrite(clauses: Clause[]): boolean {
  const claims = clauses.filter((c) => c.claim).map((c) => c.text);
  if (!claims.length) return false;
  const said = clauses
    .filter((c) => c.statement)
    .map((c) => c.text.replace(/`[^`]*`/g, ' code '))
    .join(' ');
  return (
    /\btwin\b/i.test(said) ||
    (/\bcommitted\b/i.test(claims.join(' ')) && /\b(?:geometry|revision|baseline)\b/i.test(said))
  );
}

/** A quoted node id; `session`: a session object id presented as a node id. */
interface QuotedId {
  id: string;
  session: boolean;
}

/** Node ids quoted in a sentence's statement clauses: a question or offer may name a key still to be written
 *  ("Shall I commit it as CAD-NEW-1?"; a bare unknown key names a new item), a statement presents it as real. */
function quotedIds(sentence: string, clauses: Clause[]): QuotedId[] {
  const talk = NODE_TALK.test(sentence.replace(/`[^`]*`/g, ' '));
  return clauses
    .filter((c) => c.statement)
    .flatMap((c) => [...c.text.matchAll(QUOTED)].map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4]).trim()))
    .flatMap((id): QuotedId[] => {
      if (UUID.test(id) || ITEM_KEY.test(id)) return [{ id, session: false }];
      return SESSION_OBJECT.test(id) && talk ? [{ id, session: true }] : [];
    });
}

/** Grounded when a source contains the id verbatim (uuids case-blind); a session object id never is. */
function grounded(id: QuotedId, sources: string[]): boolean {
  if (id.session) return false;
  if (UUID.test(id.id)) return sources.some((s) => s.toLowerCase().includes(id.id.toLowerCase()));
  return sources.some((s) => s.includes(id.id));
}

const BANNER: Record<GroundingKind, (ids: string[]) => string> = {
  no_tool_call: () => '> ⚠ Unverified: this reply reports finished work, but no tool call succeeded in this turn.',
  twin_write: () =>
    '> ⚠ No twin commit: this reply says the twin was written, but no twin write call succeeded in this turn.',
  node_id: (ids) =>
    `> ⚠ Unverified node id: ${ids.map((i) => `\`${i}\``).join(', ')} (no tool result, message, prompt, history or project brief contains it).`,
};

/** Rule 7 on one reply: banners in the order no_tool_call, twin_write, node_id, prepended to the reply. */
export function groundReply(input: GroundingInput): GroundingResult {
  const ok = input.toolCalls.filter((c) => c.status === 'success');
  const sentences = sentencesOf(input.reply).map((s) => ({ s, clauses: clausesOf(s) }));
  const kinds = new Map<GroundingKind, string[]>();
  if (!ok.length && sentences.some(({ clauses }) => clauses.some((c) => c.claim))) kinds.set('no_tool_call', []);
  if (!ok.some((c) => isTwinWriteTool(c.tool_id)) && sentences.some(({ clauses }) => claimsTwinWrite(clauses))) {
    kinds.set('twin_write', []);
  }
  const ids = sentences.flatMap(({ s, clauses }) => quotedIds(s, clauses)).filter((id) => !grounded(id, input.sources));
  const unverified = [...new Set(ids.map((i) => i.id))];
  if (unverified.length) kinds.set('node_id', unverified);
  const banners = GROUNDING_KINDS.filter((k) => kinds.has(k)).map((kind): GroundingBanner => {
    const list = kinds.get(kind)!;
    return kind === 'node_id' ? { kind, text: BANNER[kind](list), ids: list } : { kind, text: BANNER[kind](list) };
  });
  return { text: banners.length ? `${banners.map((b) => b.text).join('\n')}\n\n${input.reply}` : input.reply, banners };
}

/** "Only the first banner changes a design-flow phase status": the banner that does, or null. */
export const statusBanner = (banners: readonly GroundingBanner[]): GroundingBanner | null => banners[0] ?? null;
