import os from 'node:os';
import type { ServiceSchema } from 'moleculer';
import type { Infra } from '../../../brokers/infra.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { checkEngineSandbox, configureEngines } from '../kit/sandbox.ts';
import { CCX_MISSING, onPath } from './ccx.ts';
import { checkMeshConvergenceTool } from './convergence.tool.ts';
import { crossCheckTools } from './crosscheck.tools.ts';
import { solverDeps } from './deps.ts';
import { feaTools } from './fea.tools.ts';
import { jointLoadsTool } from './joint-loads.tool.ts';
import { resultTools } from './results.tools.ts';

/**
 * The `solver` adapter (role `adapter:solver`): the nine solver tools on CalculiX, with field extraction in its own
 * piscina pool. Unhealthy, naming `ccx`, while the program is not on PATH, and naming `bubblewrap` while the engine
 * sandbox is on and cannot run (kit/sandbox.ts): the tools stay listed and calls fail with TOOL_UNAVAILABLE. The pool
 * is destroyed when the actor stops.
 */
export function createSolverAdapter(infra: Infra): ServiceSchema {
  configureEngines(infra.config);
  const deps = solverDeps(infra);
  const schema = createAdapterService({
    id: 'solver',
    version: '0.1.0',
    capability: 'fea',
    // SPEC Limits: the solver adapter example, 2048 MB, 600 CPU seconds, 512 MB disk.
    resourceLimits: { max_memory_mb: 2048, max_cpu_seconds: 600, max_disk_mb: 512 },
    // One solve per core (ccx runs with OMP_NUM_THREADS=1): past it a call is refused and goes to another replica.
    concurrency: ({ config }) => config.SERVICE_SOLVER_CONCURRENCY ?? os.availableParallelism(),
    tools: () => [
      ...feaTools(deps),
      ...resultTools(deps),
      checkMeshConvergenceTool,
      ...crossCheckTools(deps),
      jointLoadsTool,
    ],
    checkEngine: async () => {
      if (!(await onPath('ccx'))) return { status: 'unhealthy', message: CCX_MISSING };
      const sandbox = await checkEngineSandbox(infra.config.SERVICE_ENGINE_SANDBOX);
      return sandbox ? { status: 'unhealthy', message: sandbox } : { status: 'healthy' };
    },
  })(infra);
  return {
    ...schema,
    async stopped() {
      await deps.pool.destroy();
    },
  };
}
