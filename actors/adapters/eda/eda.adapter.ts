import type { Infra } from '../../../brokers/infra.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { configureEngines } from '../kit/sandbox.ts';
import { Workspace, workspaceRoot } from '../kit/workspace.ts';
import { edaTools } from './tools.ts';
import { kicadEngineStatus, setKicadCli, setKicadPython } from './engine.ts';
import { closeEdaPool, setEdaWorkerMemory } from './load.ts';
import { layoutActions } from './layout/layout.action.ts';

const edaAdapter = createAdapterService({
  id: 'eda',
  version: '0.1.0',
  capability: 'eda',
  tools: (infra) => edaTools(new Workspace(workspaceRoot(infra.config))),
  checkEngine: () => kicadEngineStatus(),
});

/**
 * The `eda` adapter (role `adapter:eda`): KiCad files. Schematic tools (netlist, BOM, pin map, ERC, SPICE export,
 * schematic generation) read the S-expressions natively; DRC and Gerber/drill/position files run KiCad 9's command line
 * kicad-cli, autorouting edits the board through KiCad's Python module `pcbnew`, all sandboxed. Without KiCad 9 the
 * adapter reports itself degraded naming the tools that are unavailable, the Debian package and the suite
 * (bookworm-backports); those tools fail with TOOL_UNAVAILABLE.
 * KiCad files are read in the adapter's worker pool (workers/eda), destroyed when the actor stops.
 */
export const createEdaAdapter = (infra: Infra) => {
  configureEngines(infra.config);
  setKicadPython(infra.config.SERVICE_EDA_PYTHON);
  setKicadCli(infra.config.SERVICE_EDA_KICAD_CLI);
  setEdaWorkerMemory(infra.config.SERVICE_EDA_WORKER_MEMORY_MB);
  const schema = edaAdapter(infra);
  // The board-from-schematic action the hardware_v1 flow calls over the bus (decision 0165; no MCP tool).
  const layout = layoutActions(new Workspace(workspaceRoot(infra.config)));
  return { ...schema, actions: { ...schema.actions, ...layout }, stopped: () => closeEdaPool() };
};
