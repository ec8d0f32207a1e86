import os from 'node:os';
import { createCadAdapter } from '../kit/cad/common.ts';
import { fileTools } from '../kit/cad/file.tools.ts';
import { scriptTools } from './script.tools.ts';

/**
 * The `cadscript` adapter (7 stateless tools, TOOLS.md): create_parametric, boolean_operation, get_properties,
 * export_geometry, execute_script, create_assembly, generate_enclosure, on the OpenCascade kernel (replicad) in the
 * process's kernel threads. Results carry a `cad_file` path on the shared workspace.
 */
export const createCadscriptAdapter = createCadAdapter({
  id: 'cadscript',
  version: '0.1.0',
  capability: 'cad',
  // One call per kernel thread of the process: past it a call is refused and goes to another replica (kit/backlog.ts).
  concurrency: ({ config }) =>
    config.SERVICE_CADSCRIPT_CONCURRENCY ?? config.SERVICE_CAD_THREADS ?? os.availableParallelism(),
  tools: (deps) => [...fileTools(deps), ...scriptTools(deps)],
});
