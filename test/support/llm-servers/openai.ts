import type http from 'node:http';
import { sse, startSse, WireServer, type RecordedRequest, type ScriptedReply } from './wire-server.ts';

export type { RecordedRequest, ScriptedReply } from './wire-server.ts';

/**
 * A local server speaking the OpenAI chat-completions protocol (`POST /v1/chat/completions`): a `chat.completion`
 * object, or with `stream: true` `chat.completion.chunk`s as `data:` lines ending in `data: [DONE]`; tool calls as
 * `tool_calls` deltas by index (id, type and name first, then argument fragments); with
 * `stream_options.include_usage` every chunk carries `usage: null` and one last chunk with empty `choices` carries
 * the usage (prompt_tokens_details.cached_tokens). Errors are `{error: {message, type, param, code}}`.
 */
export async function startOpenAIServer(opts: { apiKey?: string } = {}): Promise<WireServer> {
  const server = new WireServer({
    route: '/v1/chat/completions',
    apiKey: opts.apiKey,
    keyOf: (h) => h.authorization?.replace(/^Bearer /, ''),
    errorBody: (_status, type, message) => ({ error: { message, type, param: null, code: null } }),
    write,
  });
  return server.listen('/v1');
}

let seq = 0;

function finishOf(reply: ScriptedReply): string {
  return reply.stop ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
}

function usageOf(reply: ScriptedReply) {
  const u = reply.usage;
  if (!u) return undefined;
  return {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    total_tokens: u.prompt_tokens + u.completion_tokens,
    prompt_tokens_details: { cached_tokens: u.cached_tokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function write(
  req: RecordedRequest,
  reply: ScriptedReply,
  res: http.ServerResponse,
  socket: { destroy(): void },
): void {
  const id = `chatcmpl-${++seq}`;
  const created = Math.floor(Date.now() / 1000);
  const model = reply.model ?? String(req.body.model);
  if (req.body.stream !== true) {
    const calls = reply.toolCalls ?? [];
    const body = {
      id,
      object: 'chat.completion',
      created,
      model,
      system_fingerprint: 'fp_local',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text ? reply.text.join('') : null,
            refusal: null,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: c.name, arguments: c.args.join('') },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: finishOf(reply),
        },
      ],
      ...(reply.usage ? { usage: usageOf(reply) } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return;
  }

  const includeUsage = (req.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: 'fp_local',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  startSse(res);
  sse(res, chunk({ role: 'assistant', content: '', refusal: null }));
  if (reply.fault === 'hang_mid_stream') return;
  if (reply.fault === 'malformed_chunk') {
    sse(res, '{"id":"' + id + '","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x"');
    sse(res, '[DONE]');
    res.end();
    return;
  }
  for (const t of reply.text ?? []) sse(res, chunk({ content: t }));
  if (reply.fault === 'reset') return socket.destroy();
  if (reply.fault === 'truncate') return void res.end();
  (reply.toolCalls ?? []).forEach((c, index) => {
    sse(res, chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const a of c.args) sse(res, chunk({ tool_calls: [{ index, function: { arguments: a } }] }));
  });
  sse(res, chunk({}, finishOf(reply)));
  if (includeUsage && reply.usage) {
    sse(res, {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_local',
      choices: [],
      usage: usageOf(reply),
    });
  }
  sse(res, '[DONE]');
  res.end();
}
