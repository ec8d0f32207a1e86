import crypto from 'node:crypto';
import { expect } from 'vitest';
import { createRunsService } from '../../actors/runs/runs.service.ts';
import { call } from '../../brokers/actions.ts';
import { loadConfig } from '../../brokers/config.ts';
import { startNode, type StartedNode } from '../../brokers/launcher/node.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { HoldsActions } from '../../contracts/actions/approvals.actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import { HoldsInternal } from '../../actors/holds/index.ts';
import { recordingExecutor, type RecordedDesign } from './flow-node.ts';
import type { TestClock } from './holds.ts';
import { httpJson, type Json } from './http-raw.ts';

/** The roles an approvals test needs: the gateway and every source of the queue (runs with a recording executor). */
export const APPROVAL_ROLES = 'gateway,projects,tools,holds,approvals,twin,runs,gates,adapter:twin,adapter:flow';

/** A node for approvals tests with an HTTP helper. */
export interface ApprovalsNode {
  node: StartedNode;
  url: string;
  http(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; json: Json }>;
  stop(): Promise<void>;
}

/**
 * Starts a node in this process the way the launcher does (same role table), with `runs` on the recording executor
 * (phases record twin data, no engines) and, when given, an injected clock (hold windows).
 */
export async function startApprovalsNode(
  opts: { env?: Record<string, string>; roles?: string; clock?: TestClock } = {},
): Promise<ApprovalsNode> {
  const config = loadConfig({
    SERVICE_PORT: '0',
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_LOG_LEVEL: 'warn',
    ...opts.env,
  });
  const log = createRootLogger({ level: config.SERVICE_LOG_LEVEL, toStderr: true });
  const node = await startNode({
    roles: opts.roles ?? APPROVAL_ROLES,
    config,
    log,
    now: opts.clock?.now,
    overrides: { runs: [(infra) => createRunsService(infra, { executor: recordingExecutor() })] },
  });
  const url = node.gateway.address ? `http://127.0.0.1:${node.gateway.address.port}` : '';
  return {
    node,
    url,
    http: (method, path, body, headers) => httpJson(`${url}${path}`, method, body, headers),
    stop: () => node.stop(),
  };
}

/** Starts a mech_v1 run over HTTP; `design` changes what the recording executor writes (e.g. silent phases). */
export async function startRun(t: ApprovalsNode, project: string | null, design: RecordedDesign = {}): Promise<Json> {
  const r = await t.http('POST', '/v1/runs', {
    design_flow: 'mech_v1',
    project_id: project,
    goal: 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N',
    context: { design },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json;
}

/** Waits until the run's gate item is pending at `phase` (and, when given, at that attempt); answers the item (as `headers` reads it). */
export async function pendingGate(
  t: ApprovalsNode,
  runId: string,
  phase: string,
  attempt?: number,
  headers: Record<string, string> = {},
): Promise<Json> {
  let item: Json = {};
  await expect
    .poll(
      async () => {
        item = (await t.http('GET', `/v1/approvals/gate:${runId}`, undefined, headers)).json;
        return (
          item.status === 'pending' &&
          item.detail?.phase === phase &&
          (attempt === undefined || item.detail?.attempt === attempt)
        );
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  return item;
}

/** Records a twin node a person approves (design change, design loop and its iteration) through the twin actor. */
export async function recordNode(
  t: ApprovalsNode,
  project: string | null,
  node_type: string,
  name: string,
  properties: Json = {},
): Promise<string> {
  const r = await call(t.node.broker, TwinActions.recordNode, { project_id: project, node_type, name, properties });
  return r.node.id;
}

/** Records a sketch or technical drawing (item types sketch, technical_drawing) as the next revision of its item. */
export async function writeDefinition(
  t: ApprovalsNode,
  project: string | null,
  item_type: 'sketch' | 'technical_drawing',
  name: string,
): Promise<string> {
  const r = await call(t.node.broker, TwinActions.writeDefinition, {
    project_id: project,
    item_type,
    name,
    properties: { description: `${name} drawn` },
  });
  return r.node.id;
}

/** A design loop with a winning iteration node; answers the loop's node id and its winner's. */
export async function designLoop(
  t: ApprovalsNode,
  project: string | null,
  name = 'Bracket loop',
): Promise<{ loop: string; winner: string }> {
  const winner = await recordNode(t, project, 'design_iteration', `${name} iteration 3`, { score: 0.92 });
  const loop = await recordNode(t, project, 'design_loop', name, {
    status: 'pending',
    winning_iteration: winner,
    iterations: [winner],
  });
  return { loop, winner };
}

/** Files a ledger request (human authority by default) through the holds actor; answers its approval id `tool:<id>`. */
export async function fileRequest(
  t: ApprovalsNode,
  project: string | null,
  kind: 'human_authority' | 'flow_version' = 'human_authority',
): Promise<string> {
  const r = await call(t.node.broker, HoldsActions.file, {
    kind,
    // A sign-off this service gives no effect: these tests are about the queue (authority effects: authority.test.ts).
    tool_id: 'review.sign_off',
    title: `sign-off ${crypto.randomUUID().slice(0, 6)}`,
    project_id: project,
    arguments: { level: 'L2' },
  });
  return `tool:${r.id}`;
}

/** A held call waiting on the dashboard route (a remote caller, no stream to ask on); answers its approval id and outcome. */
export async function holdCall(
  t: ApprovalsNode,
  project: string,
): Promise<{ id: string; call_id: string; outcome: Promise<unknown> }> {
  const call_id = `call_${crypto.randomUUID()}`;
  const outcome = call(t.node.broker, HoldsActions.request, {
    call_id,
    tool_id: 'twin.record_decision',
    arguments: { project_id: project, title: 'held', decision: 'go' },
    caller: {
      kind: 'remote',
      transport: 'http',
      session_id: 's-approvals',
      client: 'approvals-test',
      project_id: project,
    },
    reason_held: 'a remote caller writes to the twin',
  });
  let id = '';
  await expect
    .poll(async () => {
      const recs = (await call(t.node.broker, HoldsActions.list, { status: 'pending', project_id: project })).records;
      id = recs.find((r) => r.call_id === call_id)?.id ?? '';
      return id;
    })
    .not.toBe('');
  return { id: `tool:${id}`, call_id, outcome: outcome.catch((e: unknown) => e) };
}

/** Runs the holds reaper once (after the test moved its clock). */
export const holdsTick = (t: ApprovalsNode) => call(t.node.broker, HoldsInternal.tick, {});
