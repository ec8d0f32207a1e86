import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool } from '../../support/tools.ts';

// A PATH without ccx while the node runs (this file runs in a process of its own).
const t = useTestNode({ roles: 'tools,adapter:solver', path: '/nonexistent-bin' });

describe('solver adapter without CalculiX', () => {
  it('reports unhealthy naming ccx; its tools stay listed and calls fail with TOOL_UNAVAILABLE naming ccx', async () => {
    const health = await call(t.node.broker, adapterActions('solver').health, {});
    expect(health).toMatchObject({ status: 'unhealthy', tools_available: 0, message: expect.stringContaining('ccx') });
    const manifest = await call(t.node.broker, adapterActions('solver').manifest, {});
    expect(manifest.tools.map((x) => x.name).sort()).toEqual([
      'check_mesh_convergence',
      'compute_joint_loads',
      'cross_check_cantilever_beam',
      'cross_check_cantilever_frequency',
      'cross_check_thermal_steady_state',
      'extract_results',
      'run_fea',
      'run_thermal',
      'validate_mesh',
    ]);
    const o = await callTool(t.node.broker, 'solver.run_fea', {
      mesh_file: 'm.inp',
      load_case: 'x',
      analysis_type: 'modal',
    });
    expect(JSON.stringify(o)).toContain('ccx (CalculiX) is not installed');
    expect(o.status === 'error' && o.error.type === 'TOOL_UNAVAILABLE').toBe(true);
  });
});
