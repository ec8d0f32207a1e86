import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** Polls `probe` every 50 ms until it answers something, for at most `ms` (a bench waits on the real engines). */
export async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await probe();
    if (v !== undefined) return v;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Imports KiCad's pic_programmer board into a project the way the e2e test does: the file into the workspace, its
 * pcb_layout document recorded over MCP by an agent and approved in the approvals queue.
 */
export async function importBoard(base: string, workspace: string, projectId: string): Promise<void> {
  fs.mkdirSync(path.join(workspace, 'boards'), { recursive: true });
  fs.copyFileSync(
    '/usr/share/kicad/demos/pic_programmer/pic_programmer.kicad_pcb',
    path.join(workspace, 'boards/sensor.kicad_pcb'),
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
  const held = await until(
    async () =>
      (await http(base, 'GET', `/v1/approvals?project_id=${projectId}&kind=tool_call`, undefined, DASH)).json.items?.[0]
        ?.id as string | undefined,
    60_000,
    'the held pcb_layout write',
  );
  await http(base, 'POST', `/v1/approvals/${held}/decision`, { decision: 'approve', reason: 'bench' }, DASH);
  await call;
  await client.close();
}
