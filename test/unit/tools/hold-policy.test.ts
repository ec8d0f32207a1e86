import { describe, expect, it } from 'vitest';
import { decideHold } from '../../../actors/tools/hold-policy.ts';
import { annotationsOf, TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';
import type { Caller } from '../../../contracts/actions/adapters.actions.ts';

const remote: Caller = { kind: 'remote', transport: 'http' };
const stdio: Caller = { kind: 'stdio', transport: 'stdio' };
const service: Caller = { kind: 'service', transport: 'internal' };
const decide = (id: string, caller: Caller, exemptLocalWrites = true) => {
  const e = TOOL_CATALOGUE.get(id)!;
  return decideHold(id, annotationsOf(e), e, caller, { exemptLocalWrites }).kind;
};

describe('hold policy', () => {
  it('never holds a read-only tool', () => {
    for (const c of [remote, stdio, service]) expect(decide('twin.get_node', c)).toBe('run');
    expect(decide('twin.query_cypher', remote)).toBe('run');
  });

  it('holds every write of a remote caller', () => {
    for (const id of [
      'twin.record_document',
      'project.create',
      'cadkernel.pad_sketch',
      'project.delete',
      'solver.run_fea',
    ]) {
      expect(decide(id, remote), id).toBe('hold');
    }
    expect(decide('flow.await_gate', remote)).toBe('run');
  });

  it('exempts stdio writes unless exempt_local_writes is false', () => {
    expect(decide('project.create', stdio)).toBe('run');
    expect(decide('project.create', stdio, false)).toBe('hold');
  });

  it('lets the service caller run additive, producing and session tools and refuses the rest', () => {
    expect(decide('twin.record_document', service)).toBe('run');
    expect(decide('solver.run_fea', service)).toBe('run');
    expect(decide('cadkernel.pad_sketch', service)).toBe('run');
    expect(decide('project.delete', service)).toBe('refuse');
    expect(decide('twin.approve_design_loop', service)).toBe('refuse');
    expect(decide('flow.status', service)).toBe('refuse');
  });
});

describe('hold policy, judged per call for the EDA exports (issue 27 finding 4, decision 0030)', () => {
  const decideCall = (id: string, caller: Caller, args: Record<string, unknown>) => {
    const e = TOOL_CATALOGUE.get(id)!;
    return decideHold(id, annotationsOf(e), e, caller, { exemptLocalWrites: true }, args).kind;
  };
  const exports = ['eda.export_netlist', 'eda.export_bom', 'eda.export_gerber'];

  it('lists the exports as writes that may overwrite, not read-only', () => {
    for (const id of exports)
      expect(annotationsOf(TOOL_CATALOGUE.get(id)!), id).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('runs an export into its own scratch folder for everyone, unheld', () => {
    for (const id of exports)
      for (const c of [remote, stdio, service]) expect(decideCall(id, c, { overwrite: false }), id).toBe('run');
  });

  it('holds an export into a workspace path for a remote caller; the service caller runs it unless it overwrites', () => {
    for (const [id, arg] of [
      ['eda.export_netlist', 'output_path'],
      ['eda.export_bom', 'output_path'],
      ['eda.export_gerber', 'output_dir'],
    ] as const) {
      expect(decideCall(id, remote, { [arg]: 'out/x', overwrite: false }), id).toBe('hold');
      expect(decideCall(id, remote, { [arg]: 'out/x', overwrite: true }), id).toBe('hold');
      expect(decideCall(id, service, { [arg]: 'out/x', overwrite: false }), id).toBe('run');
      expect(decideCall(id, service, { [arg]: 'out/x', overwrite: true }), id).toBe('refuse');
    }
  });

  it('judges a call without its arguments by the tool: held for a remote caller', () => {
    const e = TOOL_CATALOGUE.get('eda.export_bom')!;
    expect(decideHold('eda.export_bom', annotationsOf(e), e, remote, { exemptLocalWrites: true }).kind).toBe('hold');
  });
});

describe('hold policy for the CAD tools that produce files (class P, +V)', () => {
  const decideCall = (id: string, caller: Caller, args: Record<string, unknown>) => {
    const e = TOOL_CATALOGUE.get(id)!;
    return decideHold(id, annotationsOf(e), e, caller, { exemptLocalWrites: true }, args).kind;
  };
  const producers = [
    'cadscript.create_parametric',
    'cadscript.create_assembly',
    'cadscript.generate_enclosure',
    'cadkernel.create_parametric',
    'cadkernel.generate_mesh',
    'cadkernel.export_model',
  ];

  it('lists them as writes that may overwrite (overwrite: true replaces a file)', () => {
    for (const id of producers)
      expect(annotationsOf(TOOL_CATALOGUE.get(id)!), id).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('holds them for a remote caller either way; the service caller runs them unless they overwrite', () => {
    for (const id of producers) {
      expect(decideCall(id, remote, { output_path: 'a.step', overwrite: false }), id).toBe('hold');
      expect(decideCall(id, remote, { output_path: 'a.step', overwrite: true }), id).toBe('hold');
      expect(decideCall(id, service, { overwrite: false }), id).toBe('run');
      expect(decideCall(id, service, { output_path: 'a.step', overwrite: true }), id).toBe('refuse');
    }
  });
});
