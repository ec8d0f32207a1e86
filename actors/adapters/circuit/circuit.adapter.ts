import type { Infra } from '../../../brokers/infra.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { checkEngineSandbox, configureEngines } from '../kit/sandbox.ts';
import { Workspace, workspaceRoot } from '../kit/workspace.ts';
import { findProgram } from './ngspice.ts';
import { runSimulationTool } from './run-simulation.tool.ts';

const circuitAdapter = createAdapterService({
  id: 'circuit',
  version: '0.1.0',
  capability: 'circuit',
  tools: (infra) => [runSimulationTool(new Workspace(workspaceRoot(infra.config)))],
  checkEngine: async (infra) => {
    if (!(await findProgram('ngspice')))
      return { status: 'unhealthy', message: 'ngspice is not installed (not found on PATH; Debian package ngspice)' };
    const sandbox = await checkEngineSandbox(infra.config.SERVICE_ENGINE_SANDBOX);
    return sandbox ? { status: 'unhealthy', message: sandbox } : { status: 'healthy' };
  },
});

/**
 * The `circuit` adapter (role `adapter:circuit`): `circuit.run_simulation` on ngspice. Unhealthy, naming `ngspice`, while
 * the program is not on PATH, and naming `bubblewrap` while the engine sandbox is on and cannot run (kit/sandbox.ts); its
 * tool then stays listed and calls fail with TOOL_UNAVAILABLE.
 */
export const createCircuitAdapter = (infra: Infra) => {
  configureEngines(infra.config);
  return circuitAdapter(infra);
};
