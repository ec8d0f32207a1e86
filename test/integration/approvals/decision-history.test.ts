import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApprovalsCli } from '../../../brokers/launcher/approvals.cli.ts';
import { pendingGate, startApprovalsNode, startRun, type ApprovalsNode } from '../../support/approvals.ts';
import type { Json } from '../../support/http-raw.ts';
import { realDbEnv } from '../../support/tools.ts';

/**
 * Issue 28 point 4 over HTTP: a gate decision keeps where it was sent from (`channel`: dashboard, cli, api, mcp, chat)
 * and the authenticated principal beside the spec's surface; the run's gate item carries every decision of every
 * phase, oldest first (`detail.decisions`), in the pending and in the decided list (decision 0061).
 */
const TOKEN = 'alice-token-0123456789abcdef';
let t: ApprovalsNode;
let drop: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  const db = await realDbEnv();
  drop = db.drop;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decision-history-'));
  const file = path.join(dir, 'tokens.json');
  fs.writeFileSync(file, JSON.stringify({ [TOKEN]: 'alice@example.com' }), { mode: 0o600 });
  t = await startApprovalsNode({ env: { ...db.env, SERVICE_AUTH_TOKENS_PATH: file } });
});
afterAll(async () => {
  await t.stop();
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${TOKEN}` };
const PHASES = ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation'];

describe('decisions carry who and where (issue 28 point 4)', () => {
  it('records the channel and principal of each surface and keeps every gate decision of the run, oldest first', async () => {
    const run = await startRun(t, null);
    const id = `gate:${run.id}`;
    const approve = { decision: 'approve', reason: 'ok' };
    const sent: Record<string, () => Promise<number>> = {
      intent: async () =>
        (await t.http('POST', `/v1/approvals/${id}/decision`, approve, { ...auth, 'x-service-surface': 'dashboard' }))
          .status,
      needs: async () => {
        let out = '';
        const code = await runApprovalsCli(
          ['decide', id, 'approve', '--reason', 'ok', '--url', t.url],
          { SERVICE_AUTH_TOKEN: TOKEN },
          { out: (s) => void (out += s), err: (s) => void (out += s) },
        );
        return code === 0 ? 200 : Number(code) * 1000 + out.length;
      },
      requirements: async () => (await t.http('POST', `/v1/approvals/${id}/decision`, approve, auth)).status,
      feasibility: async () => (await t.http('POST', `/v1/runs/${run.id}/approval`, approve, auth)).status,
      design: async () =>
        (
          await t.http('POST', `/v1/approvals/${id}/decision`, approve, {
            ...auth,
            'x-service-surface': 'agent',
            'x-service-on-behalf-of': 'alice@example.com',
            'x-service-agent': 'copilot',
          })
        ).status,
      simulation: async () =>
        (await t.http('POST', `/v1/approvals/${id}/decision`, approve, { ...auth, 'x-service-surface': 'cli' })).status,
    };
    for (const phase of PHASES) {
      const item = await pendingGate(t, run.id, phase, undefined, auth);
      // While a later gate is open the item already shows every earlier decision, oldest first.
      expect(item.detail.decisions.map((d: Json) => d.phase)).toEqual(PHASES.slice(0, PHASES.indexOf(phase)));
      expect(await sent[phase](), phase).toBe(200);
    }
    const expected = [
      ['intent', 'dashboard', 'dashboard'],
      ['needs', 'cli', 'cli'],
      ['requirements', 'unknown', 'api'],
      ['feasibility', 'unknown', 'api'],
      ['design', 'agent', 'api'],
      ['simulation', 'cli', 'cli'],
    ];
    const decided = (await t.http('GET', '/v1/approvals?status=decided&kind=gate', undefined, auth)).json;
    const mine = decided.items.filter((i: Json) => i.id === id);
    expect(mine).toHaveLength(1);
    const history = mine[0].detail.decisions as Json[];
    expect(history.map((d) => [d.phase, d.surface, d.channel])).toEqual(expected);
    for (const d of history) {
      expect(d).toMatchObject({ decision: 'approve', approver: 'alice@example.com', principal: 'alice@example.com' });
      expect(d.approver_verified).toBe(true);
    }
    expect(history.map((d) => d.decided_at)).toEqual([...history.map((d) => d.decided_at)].sort());
    expect(history[4]).toMatchObject({ on_behalf_of: 'alice@example.com', agent: 'copilot' });
    // The run page reads the run's own log: the same channel and principal on every decision.
    const view = (await t.http('GET', `/v1/runs/${run.id}`)).json;
    expect(view.decisions.map((d: Json) => [d.phase, d.surface, d.channel, d.principal])).toEqual(
      expected.map((e) => [...e, 'alice@example.com']),
    );
    // `service approvals show` prints the same history, oldest first.
    let shown = '';
    const code = await runApprovalsCli(
      ['show', id, '--url', t.url],
      { SERVICE_AUTH_TOKEN: TOKEN },
      { out: (s) => void (shown += s), err: (s) => void (shown += s) },
    );
    expect(code, shown).toBe(0);
    const lines = shown.split('\n');
    const from = lines.indexOf('decisions (oldest first):');
    expect(from, shown).toBeGreaterThan(0);
    expect(
      lines.slice(from + 1, from + 7).map((l) => /^\s+\S+\s+(\w+) approve .* from (\w+)/.exec(l)?.slice(1)),
    ).toEqual(expected.map(([phase, , channel]) => [phase, channel]));
  }, 120_000);
});
