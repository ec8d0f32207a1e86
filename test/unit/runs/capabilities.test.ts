import { describe, expect, it } from 'vitest';
import { capabilityReport, deliverableCapability, type CapabilityInputs } from '../../../actors/runs/capabilities.ts';
import { handlerPhases } from '../../../actors/runs/capability-inputs.ts';
import { FLOWS } from '../../../actors/runs/flows/index.ts';
import { phaseDriver } from '../../../actors/runs/phase-readiness.ts';
import type { EffectiveRoute } from '../../../contracts/harness-config.ts';

const TWIN = [
  'twin.record_engineering_entity',
  'twin.record_decision',
  'twin.record_constraint_set',
  'twin.record_document',
  'twin.commit_geometry',
  'twin.stage_work_product_file',
];
const ENGINES = ['cadscript.create_parametric', 'cadkernel.generate_mesh', 'solver.run_fea'];
const MECH = ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation'];
const NO_HARNESS = { reachable: false as const, reason: 'harness.routing is not served on the bus' };

/** Inputs of a mech_v1 report: every phase has a handler and every engine is registered, unless the test says otherwise. */
const inputs = (over: Partial<CapabilityInputs> = {}): CapabilityInputs => ({
  toolIds: [...TWIN, ...ENGINES],
  unavailableAdapters: [],
  unavailableTools: {},
  handlers: new Set(MECH),
  routes: NO_HARNESS,
  ...over,
});
const route = (role: string, provider: string | null, model: string | null, configured = true): EffectiveRoute => ({
  role,
  provider,
  model,
  source: provider ? 'file' : null,
  configured,
  error: provider ? null : 'no route',
});

describe('the capability report: deliverables', () => {
  it('grades each deliverable FULL, PARTIAL, UNAVAILABLE or UNKNOWN from the registered tools', () => {
    const twinOnly = new Set(['twin.commit_geometry', 'twin.record_document', 'twin.record_decision']);
    expect(deliverableCapability('design_decision', twinOnly).capability).toBe('FULL');
    expect(deliverableCapability('cad_model', twinOnly)).toMatchObject({
      capability: 'PARTIAL',
      tools_missing: ['cadscript.create_parametric'],
    });
    expect(deliverableCapability('constraint_set', twinOnly).capability).toBe('UNAVAILABLE');
    expect(deliverableCapability('hologram', twinOnly).capability).toBe('UNKNOWN');
    expect(deliverableCapability('constructor', twinOnly).capability).toBe('UNKNOWN');
    expect(deliverableCapability('cad_model', new Set([...twinOnly, 'cadscript.create_parametric'])).capability).toBe(
      'FULL',
    );
  });

  it('is READY with every handler and engine; an unrecordable enforced deliverable blocks its phase', () => {
    const full = capabilityReport(FLOWS.mech_v1, inputs());
    expect(full.status).toBe('READY');
    expect(full.phases.every((p) => p.runnable && p.handler === 'deterministic' && p.missing.length === 0)).toBe(true);
    const blocked = capabilityReport(
      FLOWS.mech_v1,
      inputs({ toolIds: TWIN.filter((t) => t !== 'twin.commit_geometry'), unavailableAdapters: ['cadkernel'] }),
    );
    expect(blocked.status).toBe('BLOCKED');
    expect(blocked.phases.find((p) => p.id === 'design')?.status).toBe('BLOCKED');
    expect(blocked.warnings[0]).toBe('adapter cadkernel is not reachable: its tools are not counted');
    expect(blocked.phases.find((p) => p.id === 'simulation')?.missing).toContain(
      'tool cadkernel.generate_mesh (for simulation_result) is not available: adapter cadkernel is not reachable',
    );
  });
});

describe('the capability report: can each phase run now', () => {
  it('takes the handlers from the executor table; a phase without one is not runnable, BLOCKED, and says why', () => {
    expect([
      ...handlerPhases({ mech_v1: { intent: async () => ({ ok: false, kind: 'data', message: '' }) } }, 'mech_v1'),
    ]).toEqual(['intent']);
    expect(handlerPhases({}, 'constructor').size).toBe(0);
    const r = capabilityReport(
      FLOWS.mech_v1,
      inputs({ handlers: new Set(['intent', 'needs', 'requirements', 'feasibility']) }),
    );
    expect(r.status).toBe('BLOCKED');
    expect(r.phases.find((p) => p.id === 'feasibility')).toMatchObject({
      runnable: true,
      status: 'READY',
      missing: [],
    });
    expect(r.phases.find((p) => p.id === 'design')).toMatchObject({
      runnable: false,
      handler: 'none',
      status: 'BLOCKED',
      missing: [
        'no deterministic handler for phase design of mech_v1',
        'no model route: the harness could not be asked for phase_brain:mechanical or phase_brain (harness.routing is not served on the bus)',
      ],
    });
    expect(r.warnings).toContain(`phase design cannot run now: ${r.phases[4].missing.join('; ')}`);
  });

  it('a producing tool that is missing or that its adapter lists unavailable makes the phase not runnable', () => {
    const absent = capabilityReport(FLOWS.mech_v1, inputs({ toolIds: TWIN }));
    expect(absent.phases.slice(0, 4).every((p) => p.runnable && p.status === 'READY')).toBe(true);
    expect(absent.phases.find((p) => p.id === 'design')).toMatchObject({
      runnable: false,
      handler: 'deterministic',
      status: 'BLOCKED',
      missing: [
        'tool cadscript.create_parametric (for cad_model) is not among the registered tools (adapter cadscript)',
      ],
    });
    const why = 'adapter cadscript reports it unavailable (CadQuery is not installed)';
    const engineless = capabilityReport(
      FLOWS.mech_v1,
      inputs({ unavailableTools: { 'cadscript.create_parametric': why } }),
    );
    const design = engineless.phases.find((p) => p.id === 'design')!;
    expect(design).toMatchObject({ runnable: false, status: 'BLOCKED' });
    expect(design.missing).toContain(`tool cadscript.create_parametric (for cad_model) cannot run: ${why}`);
    expect(design.deliverables[0].capability).not.toBe('FULL');
    expect(engineless.phases.find((p) => p.id === 'simulation')?.runnable).toBe(true);
  });

  it("a phase of several disciplines is runnable by a later discipline's own route, as the executor picks it", () => {
    const phase = {
      ...FLOWS.hardware_v1.phases.find((p) => p.id === 'firmware')!,
      disciplines: ['mechanical', 'firmware'],
    };
    const own = { reachable: true as const, routes: [route('phase_brain:firmware', 'openai', 'gpt-x')] };
    expect(phaseDriver('hardware_v1', phase, new Set(), own, 'model')).toEqual({ handler: 'model', missing: [] });
    const none = { reachable: true as const, routes: [route('phase_brain', null, null)] };
    expect(phaseDriver('hardware_v1', phase, new Set(), none, 'model').handler).toBe('none');
  });

  it('a usable phase_brain route makes a phase without a handler runnable by the model brain; a flow model without one falls back to the handler', () => {
    const early = new Set(['intent', 'needs', 'requirements', 'feasibility']);
    const routes = {
      reachable: true as const,
      routes: [route('phase_brain', 'openai', 'gpt-x'), route('phase_brain:mechanical', 'anthropic', 'claude-y')],
    };
    const r = capabilityReport(FLOWS.mech_v1, inputs({ handlers: early, routes }));
    expect(r.phases.find((p) => p.id === 'design')).toMatchObject({ runnable: true, handler: 'model', missing: [] });
    expect(r.phases.find((p) => p.id === 'simulation')).toMatchObject({ runnable: true, handler: 'model' });
    const uncredentialed = capabilityReport(
      FLOWS.mech_v1,
      inputs({
        handlers: early,
        routes: { reachable: true, routes: [route('phase_brain', 'openai', 'gpt-x', false)] },
      }),
    );
    expect(uncredentialed.phases.find((p) => p.id === 'design')).toMatchObject({
      handler: 'none',
      runnable: false,
      missing: [
        'no deterministic handler for phase design of mech_v1',
        'the model route phase_brain -> openai:gpt-x has no healthy credential for openai',
      ],
    });
    const named = {
      ...FLOWS.mech_v1,
      phases: FLOWS.mech_v1.phases.map((p) => (p.id === 'intent' ? { ...p, model: 'openai:gpt-x' } : p)),
    };
    expect(capabilityReport(named, inputs()).phases[0]).toMatchObject({ runnable: true, handler: 'deterministic' });
    expect(capabilityReport(named, inputs({ routes })).phases[0]).toMatchObject({ runnable: true, handler: 'model' });
    // SERVICE_PHASE_BRAIN=model: every phase with a route is model-driven; without one its handler runs.
    const model = capabilityReport(FLOWS.mech_v1, inputs({ routes, brain: 'model' }));
    expect(model.phases.every((p) => p.handler === 'model' && p.runnable)).toBe(true);
    const unrouted = capabilityReport(FLOWS.mech_v1, inputs({ brain: 'model' }));
    expect(unrouted.phases.every((p) => p.handler === 'deterministic')).toBe(true);
  });
});
