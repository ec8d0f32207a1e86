/** Minimal raw JSON-RPC over HTTP for wire-level tests (headers and statuses the SDK hides). */
export function rawMcp(baseUrl: string, defaults: Record<string, string> = {}) {
  const post = async (body: unknown, headers: Record<string, string> = {}, path = '/mcp') => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...defaults,
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  const initialize = async (
    protocolVersion = '2025-11-25',
    capabilities: Record<string, unknown> = {},
    clientInfo = { name: 'raw', version: '1' },
  ) => {
    const r = await post({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion, capabilities, clientInfo },
    });
    const sessionId = r.headers.get('mcp-session-id')!;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sessionId });
    return { sessionId, result: r.json.result };
  };
  return { post, initialize };
}
