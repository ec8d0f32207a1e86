import type { Context } from 'moleculer';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { SessionsActions } from '../../contracts/actions/sessions.actions.ts';
import type { ChatMessage } from '../../contracts/harness-calls.ts';
import { MemoryThemeSchema } from '../../contracts/misc.ts';
import {
  ModelInsightsSchema,
  type ConsolidateParams,
  type InsightSource,
  type ModelInsight,
} from '../../contracts/memory.ts';
import type { SessionWithEvents } from '../../contracts/sessions.ts';

/** The window read when the request names no `since`. */
export const DEFAULT_SINCE_HOURS = 168;
/** Sessions read when the request names no `fetchLimit`. */
export const DEFAULT_FETCH_LIMIT = 20;
/** Sessions read at most, whatever `fetchLimit` says: one prompt must hold them all. */
export const MAX_FETCH_LIMIT = 100;
/** A logged message is cut to this length in the prompt. */
const MESSAGE_MAX_CHARS = 2000;
const PAGE = 100;

/** The sessions of one run and the label of every source the prompt shows (S1 a session, S1.E2 its event seq 2). */
export interface Gathered {
  sessions: SessionWithEvents[];
  labels: Map<string, InsightSource>;
}

/**
 * The run's sessions, newest first, through the sessions actor (memory reads no session table): those started in
 * [since, until], of the project when one is named, at most `fetchLimit`; each with its insight and lesson events
 * (of `theme` only, when one is named; a session without such events is then left out).
 */
export async function gatherSessions(ctx: Context, p: ConsolidateParams, now: Date): Promise<Gathered> {
  const since = p.since ? Date.parse(p.since) : now.getTime() - DEFAULT_SINCE_HOURS * 3_600_000;
  const until = p.until ? Date.parse(p.until) : now.getTime();
  const limit = Math.min(p.fetchLimit ?? DEFAULT_FETCH_LIMIT, MAX_FETCH_LIMIT);
  const picked: string[] = [];
  // sessions.list answers newest first (started_at DESC): page until the window is behind us.
  for (let offset = 0, done = false; !done && picked.length < limit; offset += PAGE) {
    const page = await call(ctx, SessionsActions.list, { project_id: p.projectId, limit: PAGE, offset });
    for (const s of page.sessions) {
      const at = Date.parse(s.started_at);
      if (at < since) done = true;
      if (done || picked.length >= limit) break;
      if (at <= until) picked.push(s.id);
    }
    if (page.sessions.length < PAGE) done = true;
  }
  const sessions: SessionWithEvents[] = [];
  const labels = new Map<string, InsightSource>();
  for (const id of picked) {
    const s = await call(ctx, SessionsActions.get, { id });
    const events = s.events.filter(
      (e) => (e.kind === 'insight' || e.kind === 'lesson') && (!p.theme || e.data.theme === p.theme),
    );
    if (p.theme && events.length === 0) continue;
    const n = sessions.push({ ...s, events });
    labels.set(`S${n}`, { session_id: s.id, seq: null });
    for (const e of events) labels.set(`S${n}.E${e.seq}`, { session_id: s.id, seq: e.seq });
  }
  return { sessions, labels };
}

const cut = (s: string) => (s.length > MESSAGE_MAX_CHARS ? `${s.slice(0, MESSAGE_MAX_CHARS)}…` : s);

const INSTRUCTIONS = `You consolidate the memory of an engineering design service. You are given agent work sessions \
and the insights and lessons the agents logged in them, each under a source label in square brackets. Write the \
general, reusable insights they support: merge repeated findings, keep engineering specifics (values, parts, rules), \
drop what is one-off. Answer with a JSON array only, no prose, each element:
{"theme": one of ${MemoryThemeSchema.options.join(', ')}, "text": the insight in one or two sentences, \
"confidence": "high" | "medium" | "low" (how well the sources support it), "importance": a number from 0 to 1 \
(how much it matters for future design work), "sources": [labels of the sessions and events it comes from]}.
Use only the labels given. An empty array is a valid answer when nothing general can be said.`;

/** The one summarisation prompt of a run: the instructions, then every session and event under its label. */
export function buildPrompt(g: Gathered, theme: string | undefined): ChatMessage[] {
  const lines: string[] = [];
  g.sessions.forEach((s, i) => {
    const n = i + 1;
    lines.push(`[S${n}] session "${s.title}" (${s.status}, started ${s.started_at})`);
    if (s.summary) lines.push(`  summary: ${cut(s.summary)}`);
    for (const e of s.events) {
      const t = typeof e.data.theme === 'string' ? ` (theme ${e.data.theme})` : '';
      lines.push(`  [S${n}.E${e.seq}] ${e.kind}${t}: ${cut(e.message)}`);
    }
  });
  const only = theme ? `\nWrite insights of theme ${theme} only.` : '';
  return [
    { role: 'system', content: INSTRUCTIONS + only },
    { role: 'user', content: lines.join('\n') },
  ];
}

/** A model answer that is not what the prompt asked for: a `data` failure naming the ledger record. */
const unusable = (why: string, record_id: string) =>
  new ActorError('SERVICE_UNAVAILABLE', `the summarisation model's answer is unusable, nothing was written: ${why}`, {
    failure_class: 'data',
    record_id,
  });

/**
 * The model's insights, validated: a JSON array (a markdown code fence around it is taken off), each element as
 * ModelInsightSchema asks, naming only labels the prompt gave. Anything else throws, so nothing is written.
 */
export function parseAnswer(text: string, labels: Map<string, InsightSource>, record_id: string): ModelInsight[] {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/, '$1')
    .trim();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw unusable(`it is not JSON (it begins ${JSON.stringify(body.slice(0, 80))})`, record_id);
  }
  const parsed = ModelInsightsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw unusable(`it is not the asked insight array (${issues.slice(0, 5).join('; ')})`, record_id);
  }
  const unknown = [...new Set(parsed.data.flatMap((i) => i.sources).filter((s) => !labels.has(s)))];
  if (unknown.length) throw unusable(`it names sources that were not given: ${unknown.join(', ')}`, record_id);
  return parsed.data;
}

/** The stored sources of one model insight: its labels resolved, duplicates dropped, in the order named. */
export function sourcesOf(insight: ModelInsight, labels: Map<string, InsightSource>): InsightSource[] {
  return [...new Set(insight.sources)].map((l) => labels.get(l)!);
}
