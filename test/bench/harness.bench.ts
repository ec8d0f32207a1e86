// npm run bench:harness — the harness's own overhead per model call: callModel (client lookup, request translation
// with a 40-tool offer, streamed assembly, tool-call parsing and offer check, classification, the call record) against
// the same SDK call made directly to the same local endpoint in the same run, interleaved call by call. Both families,
// streamed. Reports p50 of the whole call, p50 added, and the time to the first streamed token of each.
import { spawn } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { callModel, type CompleteRequest } from '../../actors/harness/calls/index.ts';
import type { LlmCallRecord } from '../../contracts/harness.ts';
import type { ScriptedReply } from '../support/llm-servers/wire-server.ts';

const N = Number(process.env.BENCH_CALLS ?? 2000);
const WARM = 200;
const KEY = 'sk-bench';
const REPLY: ScriptedReply = {
  text: ['The ', 'weather ', 'in ', 'Oslo ', 'is ', 'clear ', 'and ', 'cold.'],
  toolCalls: [{ id: 'call_1', name: 'tool_7', args: ['{"ci', 'ty": "Os', 'lo", "units": "metric"}'] }],
  usage: { prompt_tokens: 2400, completion_tokens: 40, cached_tokens: 2048 },
};
const TOOLS = Array.from({ length: 40 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool number ${i} of the catalogue`,
  input_schema: { type: 'object', properties: { city: { type: 'string' }, units: { enum: ['metric', 'imperial'] } } },
}));
const MESSAGES = [
  { role: 'system' as const, content: 'You are a design assistant.' },
  { role: 'user' as const, content: 'What is the weather in Oslo?' },
];

const child = spawn(process.execPath, ['test/support/llm-servers/serve.ts', JSON.stringify(REPLY), KEY], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const urls = JSON.parse(
  await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve)),
) as { openai: string; anthropic: string };

interface Sample {
  total: number;
  ttft: number;
}

const opts = { apiKey: KEY, maxRetries: 0, timeout: 120_000, logLevel: 'off' as const };
const oa = new OpenAI({ ...opts, baseURL: urls.openai, organization: null, project: null });
const an = new Anthropic({ ...opts, authToken: null, baseURL: urls.anthropic });
const oaTools = TOOLS.map((t) => ({
  type: 'function' as const,
  function: { name: t.name, description: t.description, parameters: t.input_schema },
}));
const anTools = TOOLS.map((t) => ({ ...t, input_schema: { ...t.input_schema, type: 'object' as const } }));

/** The same call with the SDK alone: the least a caller must do to read text, a tool call and usage. */
async function directOpenAI(): Promise<Sample> {
  const t0 = performance.now();
  let ttft = 0;
  const s = await oa.chat.completions.create({
    model: 'llama3.1:8b',
    messages: MESSAGES,
    tools: oaTools,
    max_tokens: 1024,
    stream: true,
    stream_options: { include_usage: true },
  });
  let args = '';
  for await (const c of s) {
    const d = c.choices[0]?.delta;
    if (d?.content && !ttft) ttft = performance.now() - t0;
    for (const tc of d?.tool_calls ?? []) args += tc.function?.arguments ?? '';
  }
  JSON.parse(args);
  return { total: performance.now() - t0, ttft };
}

async function directAnthropic(): Promise<Sample> {
  const t0 = performance.now();
  let ttft = 0;
  const s = await an.messages.create({
    model: 'claude-sonnet-5-5',
    system: MESSAGES[0]!.content,
    messages: [MESSAGES[1]!],
    tools: anTools,
    max_tokens: 1024,
    stream: true,
  });
  let args = '';
  for await (const ev of s) {
    if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta' && !ttft) ttft = performance.now() - t0;
    if (ev.type === 'content_block_delta' && ev.delta.type === 'input_json_delta') args += ev.delta.partial_json;
  }
  JSON.parse(args);
  return { total: performance.now() - t0, ttft };
}

const records: LlmCallRecord[] = [];
const deps = { record: (r: LlmCallRecord) => void records.push(r), now: () => new Date() };
const meta = { provider: 'local', role: 'chat' };

async function viaHarness(family: 'openai_compatible' | 'anthropic'): Promise<Sample> {
  const t0 = performance.now();
  let ttft = 0;
  const req: CompleteRequest = {
    provider: { family, baseURL: family === 'anthropic' ? urls.anthropic : urls.openai, apiKey: KEY },
    model: family === 'anthropic' ? 'claude-sonnet-5-5' : 'llama3.1:8b',
    messages: MESSAGES,
    tools: TOOLS,
    maxTokens: 1024,
    onText: () => {
      if (!ttft) ttft = performance.now() - t0;
    },
  };
  const out = await callModel(req, meta, deps);
  if (!out.ok) throw new Error(`harness call failed: ${out.error.message}`);
  if (records.length > 10_000) records.length = 0;
  return { total: performance.now() - t0, ttft };
}

const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const f = (ms: number) => `${ms.toFixed(3)} ms`.padStart(11);

async function measure(family: 'openai_compatible' | 'anthropic') {
  const direct = family === 'anthropic' ? directAnthropic : directOpenAI;
  for (let i = 0; i < WARM; i++) {
    await direct();
    await viaHarness(family);
  }
  const d: Sample[] = [];
  const h: Sample[] = [];
  for (let i = 0; i < N; i++) {
    // Alternate which goes first so drift and connection reuse fall on both alike.
    if (i % 2 === 0) {
      d.push(await direct());
      h.push(await viaHarness(family));
    } else {
      h.push(await viaHarness(family));
      d.push(await direct());
    }
  }
  const paired = h.map((x, i) => x.total - d[i]!.total);
  const pairedTtft = h.map((x, i) => x.ttft - d[i]!.ttft);
  const row = {
    family,
    directP50: p(
      d.map((x) => x.total),
      0.5,
    ),
    harnessP50: p(
      h.map((x) => x.total),
      0.5,
    ),
    directP90: p(
      d.map((x) => x.total),
      0.9,
    ),
    harnessP90: p(
      h.map((x) => x.total),
      0.9,
    ),
    addedP50: p(paired, 0.5),
    ttftDirect: p(
      d.map((x) => x.ttft),
      0.5,
    ),
    ttftHarness: p(
      h.map((x) => x.ttft),
      0.5,
    ),
    ttftAdded: p(pairedTtft, 0.5),
  };
  process.stdout.write(
    `\n${family}  (${N} calls each, interleaved)\n` +
      `  whole call p50   direct ${f(row.directP50)}   harness ${f(row.harnessP50)}   ratio ${(row.harnessP50 / row.directP50).toFixed(3)}\n` +
      `  whole call p90   direct ${f(row.directP90)}   harness ${f(row.harnessP90)}   ratio ${(row.harnessP90 / row.directP90).toFixed(3)}\n` +
      `  added per call   p50 of paired differences ${f(row.addedP50)}   (target < 1 ms: ${row.addedP50 < 1 ? 'met' : 'NOT met'})\n` +
      `  first token p50  direct ${f(row.ttftDirect)}   harness ${f(row.ttftHarness)}   added ${f(row.ttftAdded)}   (target within 1 ms: ${Math.abs(row.ttftAdded) < 1 ? 'met' : 'NOT met'})\n`,
  );
  return row;
}

process.stdout.write(
  `bench:harness  node ${process.version}, ${os.availableParallelism()} cores, local wire servers in a child process\n`,
);
await measure('openai_compatible');
await measure('anthropic');
child.kill('SIGKILL');
