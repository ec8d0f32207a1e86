import { createCircuitAdapter } from '../../actors/adapters/circuit/circuit.adapter.ts';
import { createEdaAdapter } from '../../actors/adapters/eda/eda.adapter.ts';
import { createConformanceAdapter } from '../../actors/adapters/conformance/conformance.adapter.ts';
import { createCadscriptAdapter } from '../../actors/adapters/cadscript/cadscript.adapter.ts';
import { createCadkernelAdapter } from '../../actors/adapters/cadkernel/cadkernel.adapter.ts';
import { createCadSessionsService } from '../../actors/cadsessions/cadsessions.service.ts';
import { createKnowledgeAdapter } from '../../actors/adapters/knowledge/knowledge.adapter.ts';
import { createMemoryAdapter } from '../../actors/adapters/memory/memory.adapter.ts';
import { createProjectAdapter } from '../../actors/adapters/projects/project.adapter.ts';
import { createSessionAdapter } from '../../actors/adapters/sessions/session.adapter.ts';
import { createToolsAdapter } from '../../actors/adapters/tools/tools.adapter.ts';
import { createWebAdapter } from '../../actors/adapters/web/web.adapter.ts';
import { createKnowledgeService } from '../../actors/knowledge/index.ts';
import { createMemoryService } from '../../actors/memory/index.ts';
import { createProjectsService } from '../../actors/projects/index.ts';
import { createSessionsService } from '../../actors/sessions/index.ts';
import { createToolsService } from '../../actors/tools/tools.service.ts';
import { createHoldsService } from '../../actors/holds/holds.service.ts';
import { createApprovalsService } from '../../actors/approvals/approvals.service.ts';
import { createGatesService } from '../../actors/gates/gates.service.ts';
import { createRunsService } from '../../actors/runs/runs.service.ts';
import { createFlowsService } from '../../actors/flows/flows.service.ts';
import { createTwinAdapter } from '../../actors/adapters/twin/twin.adapter.ts';
import { createFlowAdapter } from '../../actors/adapters/runs/flow.adapter.ts';
import { createSolverAdapter } from '../../actors/adapters/solver/solver.adapter.ts';
import { createFirmwareService } from '../../actors/firmware/index.ts';
import { createMeshFacesService } from '../../actors/named-faces/named-faces.service.ts';
import { createTwinService } from '../../actors/twin/twin.service.ts';
import { createHarnessService } from '../../actors/harness/index.ts';
import { createChatService } from '../../actors/chat/index.ts';
import { createGatewayService, type GatewayRuntime } from '../../gateway/gateway.service.ts';
import { ConfigError } from '../config.ts';
import type { RoleDefinition, ServiceFactory } from '../infra.ts';

/** Test seam: replaces the service factories of named roles (e.g. `runs` with a recording executor). Never set by the launcher. */
export type RoleOverrides = Partial<Record<string, ServiceFactory[]>>;

/**
 * The role table: what each `--roles` name hosts. `all` (the default) hosts every role in one process.
 * The gateway's runtime object receives its listening address. `adapter:conformance` (the MCP conformance suite's
 * fixture tools) exists only when `MCP_CONFORMANCE_FIXTURES=1`, so production never lists them.
 */
export function roleTable(
  runtime: GatewayRuntime,
  env: NodeJS.ProcessEnv = process.env,
  overrides: RoleOverrides = {},
): RoleDefinition[] {
  const table: RoleDefinition[] = [
    {
      name: 'gateway',
      doc: 'HTTP /v1, /health, /metrics',
      services: [(infra) => createGatewayService(infra, runtime)],
    },
    { name: 'projects', doc: 'the projects actor (table projects)', services: [createProjectsService] },
    {
      name: 'tools',
      doc: 'the tool registry and the tools.search adapter',
      services: [createToolsService, createToolsAdapter],
    },
    {
      name: 'holds',
      doc: 'the holds actor: held tool calls and the tool-approval ledger (table tool_approvals)',
      services: [createHoldsService],
    },
    { name: 'adapter:project', doc: 'the project tool adapter', services: [createProjectAdapter] },
    {
      name: 'sessions',
      doc: 'the sessions actor (tables agent_sessions, agent_session_events)',
      services: [createSessionsService],
    },
    {
      name: 'knowledge',
      doc: 'the knowledge actor (tables knowledge_sources, knowledge_chunks)',
      services: [createKnowledgeService],
    },
    {
      name: 'memory',
      doc: 'the memory actor (reads sessions through query actions of the sessions actor; owns memory_insights)',
      services: [createMemoryService],
    },
    { name: 'adapter:session', doc: 'the session tool adapter', services: [createSessionAdapter] },
    { name: 'adapter:knowledge', doc: 'the knowledge tool adapter', services: [createKnowledgeAdapter] },
    { name: 'adapter:memory', doc: 'the memory tool adapter', services: [createMemoryAdapter] },
    {
      name: 'twin',
      doc: 'the twin actor (items, revisions, drafts, change sets, baselines, nodes, edges, blobs)',
      services: [createTwinService],
    },
    {
      name: 'runs',
      doc: 'the runs actor: one event-sourced actor per design-flow run (tables runs, run_events, flow_versions)',
      services: [createRunsService, createFlowsService],
    },
    { name: 'gates', doc: 'the gates actor: gate readiness and findings', services: [createGatesService] },
    {
      name: 'approvals',
      doc: 'the approvals queue: one normalized queue over gates, the ledger, design changes, loops, sketches, drawings (table approval_decisions)',
      services: [createApprovalsService],
    },
    { name: 'adapter:twin', doc: 'the twin tool adapter', services: [createTwinAdapter] },
    {
      name: 'adapter:flow',
      doc: 'the flow tool adapter (design flows over the runs actor)',
      services: [createFlowAdapter],
    },
    { name: 'adapter:circuit', doc: 'the circuit simulation adapter (ngspice)', services: [createCircuitAdapter] },
    {
      name: 'adapter:eda',
      doc: "the EDA adapter (KiCad 6 files: native schematic reader; KiCad's pcbnew engine for DRC, Gerbers, routing)",
      services: [createEdaAdapter],
    },
    {
      name: 'adapter:solver',
      doc: 'the solver tool adapter (CalculiX) with its field-extraction worker pool, and the named-faces actor (gmsh)',
      services: [createSolverAdapter, createMeshFacesService],
    },
    {
      name: 'adapter:web',
      doc: 'the web tool adapter (search, fetch; no actor of its own)',
      services: [createWebAdapter],
    },
    {
      name: 'adapter:cadscript',
      doc: 'the cadscript tool adapter (stateless OpenCascade tools in kernel threads)',
      services: [createCadscriptAdapter],
    },
    {
      name: 'adapter:cadkernel',
      doc: 'the cadkernel tool adapter (file tools, generate_mesh, session tools over the cadsessions actor)',
      services: [createCadkernelAdapter],
    },
    {
      name: 'firmware',
      doc: 'the firmware actor: sandboxed host builds of firmware sources with gcc (firmware.build, firmware.health)',
      services: [createFirmwareService],
    },
    {
      name: 'cadsessions',
      doc: 'the CAD session actor (tables cad_sessions, cad_session_features, cad_session_files, cad_session_exports)',
      services: [createCadSessionsService],
    },
    {
      name: 'harness',
      doc: 'the agent harness: the only place the service talks to a language model (credentials, routing, usage)',
      services: [createHarnessService],
    },
    {
      name: 'chat',
      doc: 'chat threads: turns on the harness, their stream events, the grounding guard',
      services: [createChatService],
    },
    ...(env.MCP_CONFORMANCE_FIXTURES === '1'
      ? [
          {
            name: 'adapter:conformance',
            doc: 'MCP conformance fixture tools (test only)',
            services: [createConformanceAdapter],
          },
        ]
      : []),
  ];
  return table.map((r) => (overrides[r.name] ? { ...r, services: overrides[r.name]! } : r));
}

/** Expands a `--roles` value (`all`, or a comma list) into role definitions; an unknown name is a ConfigError listing the valid ones. */
export function resolveRoles(value: string, table: RoleDefinition[]): RoleDefinition[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes('all')) return table;
  const byName = new Map(table.map((r) => [r.name, r]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length) {
    throw new ConfigError(`unknown role ${unknown.join(', ')}; accepted: all, ${table.map((r) => r.name).join(', ')}`);
  }
  return [...new Set(names)].map((n) => byName.get(n)!);
}
