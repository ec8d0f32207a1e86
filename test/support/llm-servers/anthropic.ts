import type http from 'node:http';
import { sse, startSse, WireServer, type RecordedRequest, type ScriptedReply } from './wire-server.ts';

export type { RecordedRequest, ScriptedReply } from './wire-server.ts';

/**
 * A local server speaking the Anthropic messages protocol (`POST /v1/messages`, key in `x-api-key` or as a bearer token): a `message`
 * object, or with `stream: true` named SSE events `message_start` (usage with input and cache counts), `ping`,
 * `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`) / `content_block_stop`,
 * `message_delta` (stop_reason, cumulative output usage) and `message_stop`. Errors are
 * `{type: 'error', error: {type, message}}`.
 */
export async function startAnthropicServer(opts: { apiKey?: string } = {}): Promise<WireServer> {
  const server = new WireServer({
    route: '/v1/messages',
    apiKey: opts.apiKey,
    // The API takes the key in x-api-key; SDK 1.x sends it as a bearer token, which the API also accepts.
    keyOf: (h) => (typeof h['x-api-key'] === 'string' ? h['x-api-key'] : h.authorization?.replace(/^Bearer /, '')),
    errorBody: (_status, type, message) => ({ type: 'error', error: { type, message } }),
    write,
  });
  return server.listen('');
}

let seq = 0;

function stopOf(reply: ScriptedReply): string {
  return reply.stop ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
}

/** Anthropic counts the uncached prompt in input_tokens and the cache hits apart, in cache_read_input_tokens. */
function usageOf(reply: ScriptedReply, output: number) {
  const u = reply.usage;
  if (!u)
    return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: null, cache_read_input_tokens: null };
  const cached = u.cached_tokens ?? 0;
  return {
    input_tokens: u.prompt_tokens - cached,
    output_tokens: output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

function write(
  req: RecordedRequest,
  reply: ScriptedReply,
  res: http.ServerResponse,
  socket: { destroy(): void },
): void {
  const id = `msg_local_${++seq}`;
  const model = reply.model ?? String(req.body.model);
  const calls = reply.toolCalls ?? [];
  if (req.body.stream !== true) {
    const content = [
      ...(reply.text ? [{ type: 'text', text: reply.text.join('') }] : []),
      ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.args.join('') || '{}') })),
    ];
    const body = {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopOf(reply),
      stop_sequence: null,
      usage: usageOf(reply, reply.usage?.completion_tokens ?? 0),
    };
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${id}` }).end(JSON.stringify(body));
    return;
  }

  startSse(res);
  const start = { id, type: 'message', role: 'assistant', content: [], model, stop_reason: null, stop_sequence: null };
  sse(res, { type: 'message_start', message: { ...start, usage: usageOf(reply, 1) } }, 'message_start');
  if (reply.fault === 'hang_mid_stream') return;
  if (reply.fault === 'malformed_chunk') {
    sse(res, '{"type":"content_block_start","index":0,"content_block":{"type":"te', 'content_block_start');
    res.end();
    return;
  }
  sse(res, { type: 'ping' }, 'ping');
  let index = 0;
  if (reply.text) {
    sse(res, { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start');
    for (const t of reply.text) {
      sse(res, { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } }, 'content_block_delta');
    }
    if (reply.fault === 'reset') return socket.destroy();
    if (reply.fault === 'truncate') return void res.end();
    sse(res, { type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  for (const c of calls) {
    const block = { type: 'tool_use', id: c.id, name: c.name, input: {} };
    sse(res, { type: 'content_block_start', index, content_block: block }, 'content_block_start');
    for (const a of c.args) {
      sse(
        res,
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: a } },
        'content_block_delta',
      );
    }
    sse(res, { type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  const usage = reply.usage ? { output_tokens: reply.usage.completion_tokens } : { output_tokens: 0 };
  sse(
    res,
    { type: 'message_delta', delta: { stop_reason: stopOf(reply), stop_sequence: null }, usage },
    'message_delta',
  );
  sse(res, { type: 'message_stop' }, 'message_stop');
  res.end();
}
