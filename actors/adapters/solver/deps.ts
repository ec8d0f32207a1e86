import type { Infra } from '../../../brokers/infra.ts';
import type { SimFieldPool } from '../../../workers/simfield/pool.ts';
import { createToolSimFieldPool } from '../kit/engines/simfield.ts';
import { Workspace, workspaceRoot } from '../kit/workspace.ts';
import { fieldMetrics, type FieldMetrics } from './field-object.ts';

export { existingFile } from '../kit/existing-file.ts';

/** What the solver tools share: the workspace, the worker pool, the field metrics and the limits from the config. */
export interface SolverDeps {
  workspace: Workspace;
  pool: SimFieldPool;
  metrics: FieldMetrics;
  /** `SERVICE_SIM_FIELD_MAX_BYTES`: gzip cap of a field payload. */
  fieldCapBytes: number;
  /** `SERVICE_SOLVER_MAX_NODES`: largest mesh solved. */
  maxNodes: number;
}

/** Builds the solver deps from the process's infrastructure (the pool starts one warm thread). */
export function solverDeps(infra: Infra, pool: SimFieldPool = createToolSimFieldPool()): SolverDeps {
  return {
    workspace: new Workspace(workspaceRoot(infra.config)),
    pool,
    metrics: fieldMetrics(infra.metrics.registry),
    fieldCapBytes: infra.config.SERVICE_SIM_FIELD_MAX_BYTES,
    maxNodes: infra.config.SERVICE_SOLVER_MAX_NODES,
  };
}
