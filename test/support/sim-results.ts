import { rawMcp } from './mcp-raw.ts';

/**
 * Records a simulation result with a field on a running node the way a remote agent does: an MCP `tools/call` of
 * `twin.record_document` over HTTP, which the gateway holds for a person; the hold is approved through
 * `POST /v1/approvals/{id}/decision` and the call then runs. Works on any node with the approvals roles (PGlite too).
 * `field` is the gzipped `service.sim_field` payload (base64 inline) or a path relative to the node's workspace.
 */
export async function recordSimResult(
  url: string,
  p: {
    projectId: string;
    name: string;
    field?: { base64: string } | { file: string };
    summary?: Record<string, unknown>;
    extra?: Record<string, unknown>;
  },
): Promise<{ node_id: string; field_stored: boolean } & Record<string, unknown>> {
  const args = {
    project_id: p.projectId,
    document_type: 'simulation_result',
    name: p.name,
    summary: p.summary ?? {},
    ...(!p.field ? {} : 'base64' in p.field ? { field_base64: p.field.base64 } : { field_file: p.field.file }),
    ...p.extra,
  };
  return heldToolCall(url, p.projectId, 'twin.record_document', args) as Promise<
    { node_id: string; field_stored: boolean } & Record<string, unknown>
  >;
}

/** One writing tool call over MCP HTTP, approved as soon as its hold is listed; answers structuredContent. */
export async function heldToolCall(
  url: string,
  projectId: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const mcp = rawMcp(url);
  const { sessionId } = await mcp.initialize();
  const callId = Math.floor(Math.random() * 1e9);
  const answer = mcp.post(
    { jsonrpc: '2.0', id: callId, method: 'tools/call', params: { name: tool, arguments: args } },
    { 'mcp-session-id': sessionId },
  );
  const headers = { 'content-type': 'application/json', 'x-service-surface': 'cli' };
  const deadline = Date.now() + 60_000;
  let approved = false;
  while (!approved) {
    const list = (await (
      await fetch(`${url}/v1/approvals?status=pending&project_id=${encodeURIComponent(projectId)}`, { headers })
    ).json()) as { items: { id: string; title?: string; kind: string }[] };
    const held = list.items.find((i) => i.id.startsWith('tool:'));
    if (held) {
      const res = await fetch(`${url}/v1/approvals/${held.id}/decision`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ decision: 'approve' }),
      });
      if (res.status !== 200) throw new Error(`approving ${held.id}: ${res.status} ${await res.text()}`);
      approved = true;
    } else if (Date.now() > deadline) {
      throw new Error(`no held call of ${tool} appeared in project ${projectId}`);
    } else {
      // The hold is written asynchronously; wait on the call itself briefly rather than a fixed sleep.
      await Promise.race([answer, new Promise((r) => setTimeout(r, 50))]);
    }
  }
  const r = await answer;
  const result = r.json?.result as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content?: unknown;
  };
  if (!result || result.isError) throw new Error(`${tool} failed: ${r.text.slice(0, 500)}`);
  return result.structuredContent ?? {};
}

/** Creates a project over HTTP; answers its id. */
export async function createProjectHttp(url: string, name: string): Promise<string> {
  const res = await fetch(`${url}/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST /v1/projects: ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}
