import { call } from '../../brokers/actions.ts';
import { loadConfig } from '../../brokers/config.ts';
import { startNode, type StartedNode } from '../../brokers/launcher/node.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { HoldsActions } from '../../contracts/actions/approvals.actions.ts';
import { HoldsInternal } from '../../actors/holds/index.ts';

/** A clock tests move by hand (STYLE R13): holds read it through the node's injected `now`. */
export interface TestClock {
  now(): Date;
  advance(seconds: number): void;
}

/** A test clock starting at a fixed instant. */
export function testClock(start = Date.UTC(2026, 0, 5, 9, 0, 0)): TestClock {
  let t = start;
  return { now: () => new Date(t), advance: (s) => void (t += s * 1000) };
}

/** The roles a held twin write needs: the gateway, the registry, the holds actor, projects and the twin. */
export const HOLD_ROLES = 'gateway,tools,holds,projects,twin,adapter:twin';

/** A started node with its clock and the holds helpers. */
export interface HoldsNode {
  node: StartedNode;
  url: string;
  clock: TestClock;
  /** Advances the clock and runs the holds reaper once at the new time. */
  advance(seconds: number): Promise<void>;
  pending(): Promise<Awaited<ReturnType<typeof listAll>>>;
  stop(): Promise<void>;
}

const listAll = async (node: StartedNode) => (await call(node.broker, HoldsActions.list, { status: 'all' })).records;

/** Starts a node in this process on a free port with an injected clock (and the given database env). */
export async function startHoldsNode(
  opts: { roles?: string; env?: Record<string, string>; clock?: TestClock } = {},
): Promise<HoldsNode> {
  const clock = opts.clock ?? testClock();
  const config = loadConfig({
    SERVICE_PORT: '0',
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_LOG_LEVEL: 'warn',
    ...opts.env,
  });
  const log = createRootLogger({ level: config.SERVICE_LOG_LEVEL, toStderr: true });
  const node = await startNode({ roles: opts.roles ?? HOLD_ROLES, config, log, now: clock.now });
  const addr = node.gateway.address;
  return {
    node,
    url: addr ? `http://127.0.0.1:${addr.port}` : '',
    clock,
    async advance(seconds) {
      clock.advance(seconds);
      await call(node.broker, HoldsInternal.tick, {});
    },
    pending: async () => (await listAll(node)).filter((r) => r.status === 'awaiting_approval'),
    stop: () => node.stop(),
  };
}

/** Creates a project over HTTP and returns its id. */
export async function createProject(url: string, name: string): Promise<string> {
  const res = await fetch(`${url}/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return ((await res.json()) as { id: string }).id;
}

/** Names of the design decisions the twin holds for a project (did the held write run?). */
export async function decisionsOf(url: string, projectId: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/twin/nodes?project_id=${projectId}&node_type=design_decision`);
  const body = (await res.json()) as { nodes: { name: string }[] };
  return body.nodes.map((n) => n.name);
}

/** A dashboard decider with gateway auth off (SPEC "Authentication / Gateway" 2). */
export const DASHBOARD = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard' as const,
  on_behalf_of: null,
  agent: null,
};
