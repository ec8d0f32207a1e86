import type { BrokerHandle } from '../../brokers/broker.ts';
import type { ServiceFactory } from '../../brokers/infra.ts';
import { createFlowAdapter } from '../../actors/adapters/runs/flow.adapter.ts';
import { createApprovalsService } from '../../actors/approvals/approvals.service.ts';
import { createHarnessService } from '../../actors/harness/index.ts';
import { createTwinAdapter } from '../../actors/adapters/twin/twin.adapter.ts';
import type { PhaseExecutor } from '../../actors/runs/executor.ts';
import { createGatesService } from '../../actors/gates/gates.service.ts';
import { createFlowsService } from '../../actors/flows/flows.service.ts';
import { createRunsService } from '../../actors/runs/runs.service.ts';
import { createToolsService } from '../../actors/tools/tools.service.ts';
import { createTwinService } from '../../actors/twin/twin.service.ts';
import { createGatewayService, type GatewayRuntime } from '../../gateway/gateway.service.ts';
import { startActors } from './actors.ts';
import { httpJson, type Json } from './http-raw.ts';
import { useNode } from './tools.ts';

/** A started design-flow test node. */
export interface FlowNode {
  handle: BrokerHandle;
  /** Base URL of the node's gateway (HTTP `/v1` and `/mcp`). */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a node for design-flow tests: the gateway (listening on a free port), the runs actor with the given phase
 * executor (the adapter boundary: tests record twin data instead of running real engines), gates, twin, the tool
 * registry, the twin and flow adapters, the flows actor (intent compiler) and the approvals queue (every gate decision
 * route goes through it).
 */
export async function startFlowNode(opts: {
  executor: PhaseExecutor;
  env?: Record<string, string>;
  extra?: ServiceFactory[];
}): Promise<FlowNode> {
  const runtime: GatewayRuntime = { transport: 'http' };
  const handle = await startActors(
    [
      (infra) => createGatewayService(infra, runtime),
      (infra) => createRunsService(infra, { executor: opts.executor }),
      createFlowsService,
      createGatesService,
      createTwinService,
      createToolsService,
      createTwinAdapter,
      createFlowAdapter,
      createApprovalsService,
      createHarnessService,
      ...(opts.extra ?? []),
    ],
    { SERVICE_PORT: '0', ...opts.env },
  );
  await runtime.serve!();
  return { handle, url: `http://127.0.0.1:${runtime.address!.port}`, stop: () => handle.stop() };
}

/** The flow node of one test file, read inside its tests, with an HTTP helper for its gateway. */
export interface FlowNodeFixture {
  readonly handle: BrokerHandle;
  readonly url: string;
  /** Sends a request to the gateway (`path` starts at `/v1`); answers the status and the parsed JSON body. */
  http(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; json: Json }>;
}

/**
 * Starts a flow node (recording executor) on a database of its own before the file's tests and stops it, dropping the
 * database, after them.
 */
export function useFlowNode(): FlowNodeFixture {
  const node = useNode((env) => startFlowNode({ executor: recordingExecutor(), env }));
  return {
    get handle() {
      return node.handle;
    },
    get url() {
      return node.url;
    },
    http: (method, path, body, headers) => httpJson(`${node.url}${path}`, method, body, headers),
  };
}

/** What the recording executor writes: the requirement limits, and the numbers the "engines" report. */
export interface RecordedDesign {
  constraints?: { metric: string; limit: number; unit?: string; operator?: string; severity?: string }[];
  stressMpa?: number;
  massKg?: number;
  /** Phases that record nothing (their gate opens not ready). */
  silent?: string[];
}

/** A minimal STEP file (header and end only): enough for the twin to store a cad_model. */
export const STEP_BASE64 = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n').toString(
  'base64',
);

/**
 * A phase executor that records each required deliverable through the real twin tools, as the real handlers would,
 * with the numbers given instead of running CAD and the solver: the constraint set, a 200 x 20 x 10 mm geometry with
 * its mass, and a simulation result (max von Mises stress) analysing the run's committed geometry. A run's request
 * context may carry `design` to change them for that run.
 */
export function recordingExecutor(base: RecordedDesign = {}): PhaseExecutor {
  const geometry = new Map<string, string>();
  return async (input) => {
    // A run may override the node's design through its request context: `context.design`.
    const design: RecordedDesign = {
      ...base,
      ...((input.request.context as { design?: RecordedDesign } | undefined)?.design ?? {}),
    };
    if (design.silent?.includes(input.phase.id)) return { ok: true, summary: 'recorded nothing', deliverables: [] };
    const run = async (name: string, args: Record<string, unknown>) => {
      const out = await input.callTool(name, args);
      if (out.status !== 'success') throw new Error(`${name}: ${JSON.stringify(out)}`);
      return out.data as Record<string, any>;
    };
    try {
      for (const type of input.phase.required_deliverables) {
        if (type === 'constraint_set') {
          await run('twin.record_constraint_set', {
            name: 'Bracket limits',
            constraints: design.constraints ?? [{ metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa' }],
          });
        } else if (type === 'cad_model') {
          const w = await run('twin.commit_geometry', {
            name: 'Bracket',
            step_base64: STEP_BASE64,
            material: 'steel',
            properties: {
              bounding_box: { min: [0, 0, 0], max: [200, 20, 10] },
              ...(design.massKg !== undefined ? { mass_kg: design.massKg } : {}),
            },
          });
          geometry.set(input.run_id, w.item_key);
        } else if (type === 'simulation_result') {
          const geom = await run('twin.get_node', { item_key: geometry.get(input.run_id) });
          await run('twin.record_document', {
            document_type: 'simulation_result',
            name: 'Bracket static stress',
            summary: { max_von_mises_mpa: design.stressMpa ?? 60, max_displacement_mm: 0.2, load_case: 'tip load' },
            analysed_geometry_node_id: geom.id,
          });
        } else if (['intent', 'stakeholder_need', 'objective'].includes(type)) {
          await run('twin.record_engineering_entity', { entity_type: type, name: `${type} of ${input.run_id}` });
        } else if (type === 'design_decision') {
          await run('twin.record_decision', { title: `${input.phase.id} decision`, decision: 'go' });
        } else {
          await run('twin.record_document', {
            document_type: type,
            name: type,
            content: `${type} of ${input.phase.id}`,
          });
        }
      }
    } catch (err) {
      return { ok: false, kind: 'tool', message: (err as Error).message };
    }
    return { ok: true, summary: `${input.phase.id} recorded`, deliverables: [] };
  };
}
