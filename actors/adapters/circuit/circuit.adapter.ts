import { createAdapterService } from '../kit/adapter.service.ts';
import { Workspace, workspaceRoot } from '../kit/workspace.ts';
import { findProgram } from './ngspice.ts';
import { runSimulationTool } from './run-simulation.tool.ts';

/**
 * The `circuit` adapter (role `adapter:circuit`): `circuit.run_simulation` on ngspice. Unhealthy, naming `ngspice`, while
 * the program is not on PATH; its tool then stays listed and calls fail with TOOL_UNAVAILABLE.
 */
export const createCircuitAdapter = createAdapterService({
  id: 'circuit',
  version: '0.1.0',
  capability: 'circuit',
  tools: (infra) => [runSimulationTool(new Workspace(workspaceRoot(infra.config)))],
  checkEngine: async () =>
    (await findProgram('ngspice'))
      ? { status: 'healthy' }
      : { status: 'unhealthy', message: 'ngspice is not installed (not found on PATH; Debian package ngspice)' },
});
