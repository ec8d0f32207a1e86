import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool } from '../../support/tools.ts';

// A PATH without ngspice while the node runs (this file runs in a process of its own).
const t = useTestNode({ roles: 'tools,adapter:circuit', path: '/nonexistent-bin' });

describe('circuit adapter without ngspice', () => {
  it('reports unhealthy naming ngspice, and calls fail with TOOL_UNAVAILABLE naming it', async () => {
    const health = await call(t.node.broker, adapterActions('circuit').health, {});
    expect(health).toMatchObject({
      status: 'unhealthy',
      tools_available: 0,
      message: expect.stringContaining('ngspice'),
    });
    const o = await callTool(t.node.broker, 'circuit.run_simulation', {
      netlist: '* t\nR1 a 0 1k\n',
      analysis_type: 'op',
    });
    expect(JSON.stringify(o)).toContain('ngspice');
    expect(o.status === 'error' && o.error.type === 'TOOL_UNAVAILABLE').toBe(true);
  });
});
