import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { setTimeout as sleep } from 'node:timers/promises';

type Json = Record<string, any>;
const DASH = { 'x-service-surface': 'dashboard' };

async function http(base: string, method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Json };
}

/** Polls `probe` every 50 ms until it answers something, for at most `ms` (a bench waits on the real engines). */
async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
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

/** One run over HTTP, every gate approved as soon as it is ready: wall time and each phase's own time (ms). */
export async function timedRun(
  base: string,
  flow: string,
  projectId: string,
  goal: string,
): Promise<{ total_ms: number; verdict: string; phases: [string, number][] }> {
  const t0 = performance.now();
  const run = await http(base, 'POST', '/v1/runs', { design_flow: flow, project_id: projectId, goal, start: true });
  if (run.status !== 201) throw new Error(`run not started: ${JSON.stringify(run.json)}`);
  const id = run.json.id as string;
  let approved = '';
  for (;;) {
    const view = await until(
      async () => {
        const v = (await http(base, 'GET', `/v1/runs/${id}`)).json;
        const open = v.gate?.ready && v.gate.phase !== approved;
        return v.status === 'completed' || open || ['failed', 'rejected', 'cancelled'].includes(v.status)
          ? v
          : undefined;
      },
      600_000,
      `run ${id}`,
    );
    if (!(view.gate?.ready && view.gate.phase !== approved)) {
      if (view.status !== 'completed')
        throw new Error(`run ${flow} ended ${view.status}: ${JSON.stringify(view.phases)}`);
      const total_ms = performance.now() - t0;
      const verdict = (await http(base, 'GET', `/v1/runs/${id}/lifecycle`)).json.verdict as string;
      const phases = (view.phases as Json[]).map(
        (p) => [p.id, Date.parse(p.finished_at) - Date.parse(p.started_at)] as [string, number],
      );
      return { total_ms, verdict, phases };
    }
    approved = view.gate.phase as string;
    const d = await http(base, 'POST', `/v1/runs/${id}/approval`, { decision: 'approve', reason: 'bench' });
    if (d.status !== 200) throw new Error(`approve refused at ${view.gate.phase}: ${JSON.stringify(d.json)}`);
  }
}
