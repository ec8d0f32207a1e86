// npm run bench:chat — a scripted 20-step tool-using chat turn against the local OpenAI-compatible wire server (a
// child process, so it does not share the measured event loop): the service's time per step (the chat turn's wall
// time over its 20 model steps: routing, offer, validation, the tool step, progress events, stored stream events)
// against the provider's own time (the same SDK request made directly, interleaved turn by turn), and the stream's
// throughput to 100 concurrent subscribers of one thread (every subscriber reads every event of a turn over SSE).
import { spawn } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline';
import OpenAI from 'openai';
import { SYSTEM_PROMPT } from '../../actors/chat/turn-runner.ts';
import { listTools, planToolOffer, SEARCH_TOOLS } from '../../actors/harness/tools/index.ts';
import type { ChatMessageRecord } from '../../contracts/chat.ts';
import { readChatStream } from '../support/chat-stream.ts';
import type { ScriptedReply } from '../support/llm-servers/wire-server.ts';
import { startTestNode } from '../support/node.ts';
import { createPgDb, createPgliteDb, type Db } from '../../brokers/db/index.ts';
import { createTestDatabase } from '../support/pg.ts';

const TURNS = Number(process.env.BENCH_TURNS ?? 30);
const STEPS = 20;
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const KEY = 'sk-bench-chat';
// Every step: a little text, then the same read-only tool call (served from the turn's cache after the first: rule 3).
const REPLY: ScriptedReply = {
  text: ['Checking ', 'the ', 'projects.'],
  toolCalls: [{ id: 'call_1', name: 'project__list', args: ['{}'] }],
  usage: { prompt_tokens: 900, completion_tokens: 20 },
};

const child = spawn(process.execPath, ['test/support/llm-servers/serve.ts', JSON.stringify(REPLY), KEY], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const urls = JSON.parse(
  await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve)),
) as { openai: string };

// BENCH_DB=postgres: the node on a database of its own on the PostgreSQL server; default the embedded PGlite.
const pg = process.env.BENCH_DB === 'postgres' ? await createTestDatabase() : undefined;
const t = await startTestNode({
  roles: 'gateway,harness,chat,tools,projects,adapter:project',
  env: {
    SERVICE_ROUTE_CHAT: 'local-llm:llama3.1:8b',
    SERVICE_CHAT_MAX_STEPS: String(STEPS),
    SERVICE_LOG_LEVEL: 'error',
    SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1', // the local wire server
    ...(pg ? { SERVICE_DATABASE_URL: pg.url } : {}),
  },
});
const http = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(`${t.url}${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, any>;
};
await http('POST', '/v1/harness/credentials', { provider: 'local-llm', api_key: KEY, base_url: urls.openai });

const oa = new OpenAI({ apiKey: KEY, baseURL: urls.openai, maxRetries: 0, logLevel: 'off' });
// The provider's own time is taken on the requests the turn itself sends: the same offer (the registry's listing
// with search_tools, as planToolOffer builds it) and, at step k, the same conversation (system prompt, the user's
// message, k assistant messages with their tool calls and k tool results), read back from a finished turn.
const offer = planToolOffer(await listTools(t.node.broker), { family: 'openai_compatible', native: [SEARCH_TOOLS] });
const tools = offer.offers.map((o) => ({
  type: 'function' as const,
  function: { name: o.name, description: o.description, parameters: o.input_schema },
}));
let conversation: OpenAI.ChatCompletionMessageParam[] = [];
async function recordConversation(threadId: string): Promise<void> {
  const thread = await http('GET', `/v1/chat/threads/${threadId}`);
  conversation = [
    { role: 'system', content: SYSTEM_PROMPT },
    ...(thread.messages as ChatMessageRecord[]).map((m): OpenAI.ChatCompletionMessageParam => {
      if (m.role === 'user') return { role: 'user', content: m.content };
      if (m.role === 'tool') return { role: 'tool', tool_call_id: m.tool_call_id ?? '', content: m.content };
      return {
        role: 'assistant',
        content: m.content,
        tool_calls: m.tool_calls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        })),
      };
    }),
  ];
}
/** The provider's own time for step `k` (from 0): the same streamed request, read to its end, with the SDK alone. */
async function providerStep(k: number): Promise<number> {
  const t0 = performance.now();
  const s = await oa.chat.completions.create({
    model: 'llama3.1:8b',
    messages: conversation.slice(0, 2 + 2 * k),
    tools,
    max_tokens: 4096,
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const _ of s);
  return performance.now() - t0;
}

/** One chat turn of 20 steps, followed on its stream by `subscribers` clients; answers its wall time. */
async function chatTurn(subscribers = 1): Promise<{ ms: number; events: number }> {
  const thread = await http('POST', '/v1/chat/threads', {});
  const t0 = performance.now();
  const posted = await http('POST', `/v1/chat/threads/${thread.id}/messages`, { content: 'List the projects.' });
  const url = `${t.url}/v1/chat/threads/${thread.id}/stream?turn_id=${posted.turn_id}`;
  const streams = await Promise.all(Array.from({ length: subscribers }, () => readChatStream(url)));
  const ms = performance.now() - t0;
  const steps = streams[0]!.filter((e) => e.type === 'tool.result').length;
  if (steps !== STEPS) throw new Error(`the turn made ${steps} steps, not ${STEPS}`);
  if (!conversation.length) await recordConversation(thread.id);
  return { ms, events: streams.reduce((n, s) => n + s.length, 0) };
}

const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const f = (ms: number) => `${ms.toFixed(3)} ms`.padStart(11);

process.stdout.write(
  `bench:chat  node ${process.version}, ${os.availableParallelism()} cores, embedded node (PGlite)\n`,
);
for (let i = 0; i < 3; i++) {
  await chatTurn();
  for (let s = 0; s < STEPS; s++) await providerStep(s);
}
// Statements the node sends its database during the measured turns (a statement of a transaction counts once, so do
// BEGIN and COMMIT): what the floor below multiplies.
const db = (await t.node.infra.db()) as Db;
let statements = 0;
const query = db.query.bind(db);
const tx = db.tx.bind(db);
(db as { query: Db['query'] }).query = ((...a: Parameters<Db['query']>) => (statements++, query(...a))) as Db['query'];
(db as { tx: Db['tx'] }).tx = ((fn) =>
  tx((q) => {
    statements += 2;
    const inner = q.query.bind(q);
    return fn({ ...q, query: ((...a: Parameters<Db['query']>) => (statements++, inner(...a))) as Db['query'] });
  })) as Db['tx'];
const perStep: number[] = [];
const provider: number[] = [];
for (let i = 0; i < TURNS; i++) {
  const turn = await chatTurn();
  perStep.push(turn.ms / STEPS);
  const own: number[] = [];
  for (let s = 0; s < STEPS; s++) own.push(await providerStep(s));
  provider.push(own.reduce((a, b) => a + b, 0) / STEPS);
}
const added = perStep.map((x, i) => x - provider[i]!);
const perStepStatements = statements / (TURNS * STEPS);
(db as { query: Db['query'] }).query = query;
(db as { tx: Db['tx'] }).tx = tx;

/** The database's own floor: one single-row INSERT with a JSON payload, on a bare database of the same kind. */
async function statementFloor(): Promise<number> {
  const bare: Db = pg ? createPgDb(pg.url) : await createPgliteDb('memory://');
  await bare.query('CREATE TABLE IF NOT EXISTS bench_floor (id serial PRIMARY KEY, data jsonb NOT NULL)');
  const xs: number[] = [];
  for (let i = 0; i < 600; i++) {
    const t0 = performance.now();
    await bare.query('INSERT INTO bench_floor (data) VALUES ($1)', [JSON.stringify({ step: i, delta: 'the ' })]);
    if (i >= 100) xs.push(performance.now() - t0);
  }
  await bare.query('DROP TABLE bench_floor');
  await bare.close();
  return p(xs, 0.5);
}
const floor = await statementFloor();
process.stdout.write(
  `\n${TURNS} turns of ${STEPS} steps (each step: 3 text chunks and one tool call; the turn's stream read to agent.done)\n` +
    `  per step p50     service ${f(p(perStep, 0.5))}   provider alone ${f(p(provider, 0.5))}\n` +
    `  added per step   p50 ${f(p(added, 0.5))}   p90 ${f(p(added, 0.9))}   (target < 2 ms: ${p(added, 0.5) < 2 ? 'met' : 'NOT met'})\n` +
    `  database floor   ${perStepStatements.toFixed(2)} statements a step x ${f(floor)} (one bare INSERT p50, same run) = ${f(perStepStatements * floor)} a step\n`,
);

const fan: { ms: number; events: number }[] = [];
for (let i = 0; i < 3; i++) fan.push(await chatTurn(SUBSCRIBERS));
const best = fan.reduce((a, b) => (a.ms < b.ms ? a : b));
process.stdout.write(
  `\n${SUBSCRIBERS} subscribers of one thread, one ${STEPS}-step turn (best of 3)\n` +
    `  every subscriber to agent.done ${f(best.ms)}   events delivered ${best.events}   ` +
    `throughput ${Math.round(best.events / (best.ms / 1000))} events/s   (one subscriber: ${f(p(perStep, 0.5) * STEPS)})\n`,
);
await t.stop();
await pg?.drop();
child.kill('SIGKILL');
