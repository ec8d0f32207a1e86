import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// Shared by the hardware_v1 e2e test and bench:flow-engines (no test framework here: it runs under both).
export type Json = Record<string, any>;
const DASH = { 'x-service-surface': 'dashboard' };

export async function http(
  base: string,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Json };
}

/**
 * How the caller waits for a condition in the service that announces nothing (a held call appearing in the queue):
 * a test passes vitest's `vi.waitFor`, a bench its own poll (`test/bench/support/until.ts`).
 */
export type WaitFor = <T>(probe: () => Promise<T | undefined>, what: string) => Promise<T>;

/**
 * Imports KiCad's pic_programmer board into a project the way the e2e test does: the file into the workspace, its
 * pcb_layout document recorded over MCP by an agent and approved in the approvals queue.
 */
export async function importBoard(base: string, workspace: string, projectId: string, waitFor: WaitFor): Promise<void> {
  fs.mkdirSync(path.join(workspace, 'boards'), { recursive: true });
  // The board with its project file (its design rules and severities, which KiCad's DRC reads beside the board).
  for (const ext of ['kicad_pcb', 'kicad_pro'])
    fs.copyFileSync(
      `/usr/share/kicad/demos/pic_programmer/pic_programmer.${ext}`,
      path.join(workspace, `boards/sensor.${ext}`),
    );
  const client = new Client({ name: 'bench', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  const call = client.callTool(
    {
      name: 'twin.record_document',
      arguments: {
        project_id: projectId,
        document_type: 'pcb_layout',
        name: 'Sensor board',
        content: 'imported KiCad board',
        properties: { board_path: 'boards/sensor.kicad_pcb' },
      },
    },
    undefined,
    { timeout: 300_000 },
  );
  const held = await waitFor(
    async () =>
      (await http(base, 'GET', `/v1/approvals?project_id=${projectId}&kind=tool_call`, undefined, DASH)).json.items?.[0]
        ?.id as string | undefined,
    'the held pcb_layout write',
  );
  await http(base, 'POST', `/v1/approvals/${held}/decision`, { decision: 'approve', reason: 'bench' }, DASH);
  await call;
  await client.close();
}
