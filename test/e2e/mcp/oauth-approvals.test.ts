import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_ROLES, startApprovalsNode, type ApprovalsNode } from '../../support/approvals.ts';
import { testClock } from '../../support/holds.ts';
import { connectWithOAuth, freePort } from '../../support/mcp-oauth.ts';
import { startTestIdp, type TestIdp } from '../../support/oidc-provider.ts';
import { realDbEnv } from '../../support/tools.ts';

// Issue 29 point 3: every record names a verified principal. Agent A (token without approvals:decide) makes a held
// write; person B (a token with approvals:decide) approves it over the approvals route: A is the caller, B the
// verified approver. An elicitation answer decides only in a person's session holding approvals:decide.
const ACCOUNTS = {
  'agent-a': { scopes: ['mcp:read', 'mcp:write'] },
  'person-b': { scopes: ['mcp:read', 'mcp:write', 'approvals:decide'] },
};
let t: ApprovalsNode;
let idp: TestIdp;
let drop: () => Promise<void>;

beforeAll(async () => {
  const port = await freePort();
  idp = await startTestIdp({ resources: [`http://127.0.0.1:${port}/mcp`], accounts: ACCOUNTS });
  const db = await realDbEnv();
  drop = db.drop;
  t = await startApprovalsNode({
    env: {
      ...db.env,
      SERVICE_PORT: String(port),
      SERVICE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SERVICE_OAUTH_ISSUER: idp.issuer,
    },
    roles: `${APPROVAL_ROLES},adapter:project`,
    clock: testClock(),
  });
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await drop?.();
  await idp?.close();
});

/** A client that declares elicitation and approves whatever it is asked; counts the questions. */
const approving = (asked: unknown[]) => ({
  capabilities: { capabilities: { elicitation: {} } },
  setup: (c: Client) =>
    c.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return { action: 'accept' as const, content: { decision: 'approve', reason: 'fine by me' } };
    }),
});

/** The pending queue item of a held project.create named `name`, read with `token`. */
async function queued(name: string, token: string) {
  let item: any;
  await expect
    .poll(
      async () => {
        const r = await t.http('GET', '/v1/approvals?kind=tool_call', undefined, { authorization: `Bearer ${token}` });
        item = (r.json.items as any[] | undefined)?.find((i) => i.detail?.arguments?.name === name);
        return item?.status;
      },
      { timeout: 15_000 },
    )
    .toBe('pending');
  return item;
}

const projectNames = async () =>
  ((await t.http('GET', '/v1/projects')).json.projects as { name: string }[]).map((p) => p.name);

describe('verified principals on holds and decisions', () => {
  it("agent A's held write, approved by person B over the approvals route, records A as caller and B as verified approver", async () => {
    const asked: unknown[] = [];
    const a = await connectWithOAuth(t.url, idp, 'agent-a', approving(asked));
    const b = await connectWithOAuth(t.url, idp, 'person-b');
    const res = a.client.callTool({ name: 'project.create', arguments: { name: 'made-by-a' } });
    const item = await queued('made-by-a', b.auth.accessToken);
    // A holds no approvals:decide: its own client is never asked, the hold waits in the queue.
    expect(asked).toEqual([]);
    expect(item.route).toBe('dashboard');
    expect(item.requested_by).toMatch(/^agent-a via /);
    expect(item.detail.caller.principal).toMatchObject({
      subject: 'agent-a',
      kind: 'person',
      scopes: ['mcp:read', 'mcp:write'],
    });
    expect(await projectNames()).not.toContain('made-by-a');
    const d = await t.http(
      'POST',
      `/v1/approvals/${item.id}/decision`,
      { decision: 'approve', reason: 'checked' },
      { authorization: `Bearer ${b.auth.accessToken}`, 'x-service-surface': 'dashboard' },
    );
    expect(d.status, JSON.stringify(d.json)).toBe(200);
    expect(d.json.decision).toMatchObject({ approver: 'person-b', approver_verified: true });
    const out = await res;
    expect(out.isError, JSON.stringify(out)).toBeFalsy();
    expect(await projectNames()).toContain('made-by-a');
    await a.client.close();
    await b.client.close();
  });

  it("person B's own session is asked, and its answer is B's verified decision", async () => {
    const asked: unknown[] = [];
    const b = await connectWithOAuth(t.url, idp, 'person-b', approving(asked));
    const out = await b.client.callTool({ name: 'project.create', arguments: { name: 'made-by-b' } });
    expect(out.isError, JSON.stringify(out)).toBeFalsy();
    expect(asked).toHaveLength(1);
    const r = await t.http('GET', '/v1/approvals?kind=tool_call&status=decided', undefined, {
      authorization: `Bearer ${b.auth.accessToken}`,
    });
    const item = (r.json.items as any[]).find((i) => i.detail?.arguments?.name === 'made-by-b');
    expect(item?.decision).toMatchObject({ approver: 'person-b', approver_verified: true });
    // The OAuth client B answered through (its dynamically registered id) is on the decision too.
    expect(item?.decision.client_id).toEqual(expect.any(String));
    await b.client.close();
  });

  it("a twin write made in B's session is authored by B's subject and client", async () => {
    const asked: unknown[] = [];
    const b = await connectWithOAuth(t.url, idp, 'person-b', approving(asked));
    const out = await b.client.callTool({
      name: 'twin.record_decision',
      arguments: { project_id: 'p-oauth-author', title: 'Use M6 bolts', decision: 'M6' },
    });
    expect(out.isError, JSON.stringify(out)).toBeFalsy();
    const nodeId = (out.structuredContent as { node_id: string }).node_id;
    const node = await b.client.callTool({ name: 'twin.get_node', arguments: { node_id: nodeId } });
    const clientId = b.auth.clientInformation()!.client_id;
    expect(JSON.stringify(node.structuredContent)).toContain(`"author":"person-b via ${clientId}"`);
    await b.client.close();
  });
});
