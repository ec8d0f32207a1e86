import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createAdapterService, type EngineStatus } from '../../../actors/adapters/kit/adapter.service.ts';
import { defineTool } from '../../../actors/adapters/kit/tool.ts';
import { createFirmwareService } from '../../../actors/firmware/index.ts';
import { handlerPhases } from '../../../actors/runs/capability-inputs.ts';
import { DEFAULT_HANDLERS } from '../../../actors/runs/handlers/index.ts';
import { recordingExecutor, startFlowNode } from '../../support/flow-node.ts';
import { httpJson, type Json } from '../../support/http-raw.ts';
import { callTool, okData, useNode } from '../../support/tools.ts';

/** A stand-in adapter announcing the named tools (never called here), with the engine verdict given. */
const engine = (id: string, names: string[], status: EngineStatus = { status: 'healthy' }) =>
  createAdapterService({
    id,
    version: '1',
    capability: 'test',
    tools: names.map((name) =>
      defineTool({ name, description: `stand-in ${id}.${name}`, input: z.object({}), handler: async () => ({}) }),
    ),
    checkEngine: async () => status,
  });

// The CAD, mesh and FEA tools mech_v1's handlers use are served (by stand-ins); eda lists export_bom unavailable, as
// the real adapter does without KiCad. The firmware actor is the real one (the firmware phase builds on it with gcc).
const node = useNode((env) =>
  startFlowNode({
    executor: recordingExecutor(),
    env,
    extra: [
      engine('cadscript', ['create_parametric']),
      engine('cadkernel', ['generate_mesh']),
      engine('solver', ['run_fea']),
      engine('eda', ['export_bom'], {
        status: 'degraded',
        message: 'KiCad is not installed',
        unavailable: ['export_bom'],
      }),
      createFirmwareService,
    ],
  }),
);
const http = (method: string, path: string, body?: unknown) => httpJson(`${node.url}${path}`, method, body);

describe('the capability report over HTTP says which phases can run now', () => {
  it('mech_v1: every phase has its deterministic handler and healthy engines, so every phase is runnable', async () => {
    const r = await http('GET', '/v1/design-flows/mech_v1/capabilities');
    expect(r.status).toBe(200);
    expect(r.json.report.status).toBe('READY');
    expect(r.json.report.phases.map((p: Json) => [p.id, p.runnable, p.handler, p.missing])).toEqual(
      ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation'].map((id) => [
        id,
        true,
        'deterministic',
        [],
      ]),
    );
  });

  it('hardware_v1: a phase without a deterministic handler is not runnable and names the missing handler and route', async () => {
    const r = await http('GET', '/v1/design-flows/hardware_v1/capabilities');
    expect(r.status).toBe(200);
    // The report reads the executor's own table: phases given a handler later become runnable with no edit here.
    const handled = handlerPhases(DEFAULT_HANDLERS, 'hardware_v1');
    const phases: Json[] = r.json.report.phases;
    expect(phases).toHaveLength(11);
    for (const p of phases) {
      if (handled.has(p.id)) {
        expect(p).toMatchObject({ runnable: true, handler: 'deterministic', missing: [] });
        continue;
      }
      expect(p).toMatchObject({ runnable: false, handler: 'none', status: 'BLOCKED' });
      expect(p.missing[0]).toBe(`no deterministic handler for phase ${p.id} of hardware_v1`);
      expect(p.missing[1]).toMatch(/^no model route for phase_brain/);
    }
    expect(r.json.report.status).toBe(phases.every((p) => p.runnable) ? 'READY' : 'BLOCKED');
    // The flow.capabilities tool answers the same report (one code path: runs.capabilities).
    const tool = await okData(callTool(node.handle.broker, 'flow.capabilities', { flow: 'hardware_v1' }));
    expect(tool.report.phases).toEqual(phases);
  });

  it('a tool its adapter lists in unavailable_tools makes a phase that needs it not runnable, naming the adapter', async () => {
    const run = (await http('POST', '/v1/runs', { design_flow: 'mech_v1', goal: 'a bracket' })).json;
    const patch = await http('POST', `/v1/runs/${run.id}/patches`, {
      operations: [
        {
          op: 'add_phase',
          after: 'feasibility',
          phase: {
            id: 'costing',
            title: 'Costing',
            objective: 'Cost the bill of materials.',
            required_deliverables: ['bom'],
            gate: { name: 'Cost review', gate_id: 'GC' },
          },
        },
      ],
    });
    expect(patch.status).toBe(201);
    const r = await http('GET', `/v1/design-flows/versions/${encodeURIComponent(patch.json.version_id)}/capabilities`);
    expect(r.status).toBe(200);
    const costing = r.json.report.phases.find((p: Json) => p.id === 'costing');
    expect(costing).toMatchObject({ runnable: false, status: 'BLOCKED' });
    expect(costing.missing).toContain(
      'tool eda.export_bom (for bom) cannot run: adapter eda reports it unavailable (KiCad is not installed)',
    );
    expect(costing.missing).toContain('no deterministic handler for phase costing of mech_v1');
  });
});
