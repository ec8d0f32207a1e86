// A child process serving both local wire servers with one steady reply (for bench:harness, so the servers do not
// share the measured process's event loop). Prints one line: {"openai": url, "anthropic": url}.
import { startAnthropicServer } from './anthropic.ts';
import { startOpenAIServer } from './openai.ts';
import type { ScriptedReply } from './wire-server.ts';

const reply = JSON.parse(process.argv[2] ?? '{}') as ScriptedReply;
const key = process.argv[3];
const openai = (await startOpenAIServer({ apiKey: key })).always(reply);
const anthropic = (await startAnthropicServer({ apiKey: key })).always(reply);
process.stdout.write(`${JSON.stringify({ openai: openai.url, anthropic: anthropic.url })}\n`);
