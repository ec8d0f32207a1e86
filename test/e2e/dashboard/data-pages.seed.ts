/**
 * Seeding for the data-pages browser test, through the node's real HTTP API only: projects and constraint sets over
 * `/v1`, and MCP tool calls over `POST /mcp` (sessions, knowledge, component selections). A remote tool write is held
 * for a person, so `held` approves it through `/v1/approvals` (surface cli) as a person would, then reads the result.
 */
import { vi } from 'vitest';

type Json = Record<string, any>;

export async function http(base: string, path: string, init: { method?: string; body?: unknown; headers?: Json } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
}

/** One MCP session on the node: `call` answers the tool's structured result (or throws with the error). */
export async function mcpClient(base: string) {
  const post = async (body: unknown, session?: string, signal?: AbortSignal) => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { res, json: text ? (JSON.parse(text) as Json) : undefined };
  };
  const init = await post({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'data-pages-seed', version: '1' } },
  });
  const session = init.res.headers.get('mcp-session-id') ?? undefined;
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  let n = 0;
  return async (name: string, args: Json, signal?: AbortSignal): Promise<Json> => {
    const { json } = await post(
      { jsonrpc: '2.0', id: `c${++n}`, method: 'tools/call', params: { name, arguments: args } },
      session,
      signal,
    );
    if (json?.error || json?.result?.isError) throw new Error(`${name}: ${JSON.stringify(json)}`);
    const r = json!.result;
    return (r.structuredContent ?? JSON.parse(r.content[0].text)) as Json;
  };
}

type Call = Awaited<ReturnType<typeof mcpClient>>;

/** The pending tool-call approval of `tool` not among `seen` (polled until it is there). */
export async function pendingToolApproval(base: string, tool: string, seen: Set<string>): Promise<Json> {
  // expect.poll only works inside a test; this runs in beforeAll, where vitest's waitFor works.
  const found = await vi.waitFor(
    async () => {
      const list = await http(base, '/v1/approvals?status=pending&kind=tool_call', {
        headers: { 'X-Service-Surface': 'cli' },
      });
      const item = (list.json.items as Json[]).find((i) => i.detail?.tool_id === tool && !seen.has(i.id));
      if (!item) throw new Error(`no pending approval of ${tool} yet`);
      return item;
    },
    { timeout: 60_000, interval: 50 },
  );
  seen.add(found.id as string);
  return found;
}

/** Calls a held write tool and approves it as a person (surface cli), answering the tool's result. */
export async function held(base: string, call: Call, tool: string, args: Json, seen: Set<string>): Promise<Json> {
  const result = call(tool, args);
  result.catch(() => undefined);
  const item = await pendingToolApproval(base, tool, seen);
  const decided = await http(base, `/v1/approvals/${encodeURIComponent(item.id)}/decision`, {
    body: { decision: 'approve', reason: 'seeding the data-pages test' },
    headers: { 'X-Service-Surface': 'cli' },
  });
  if (decided.status !== 200) throw new Error(`approval of ${tool}: ${JSON.stringify(decided.json)}`);
  return result;
}
