import fs from 'node:fs/promises';
import type { Infra } from '../../../brokers/infra.ts';
import { InvalidArgumentsError } from '../kit/tool.ts';
import { Workspace, workspaceRoot } from '../kit/workspace.ts';
import { fieldMetrics, type FieldMetrics } from './field-object.ts';
import { createSimFieldPool, type SimFieldPool } from './pool.ts';

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
export function solverDeps(infra: Infra, pool: SimFieldPool = createSimFieldPool()): SolverDeps {
  return {
    workspace: new Workspace(workspaceRoot(infra.config)),
    pool,
    metrics: fieldMetrics(infra.metrics.registry),
    fieldCapBytes: infra.config.SERVICE_SIM_FIELD_MAX_BYTES,
    maxNodes: infra.config.SERVICE_SOLVER_MAX_NODES,
  };
}

/** Resolves a workspace path to an existing file; missing is invalid arguments naming the argument. */
export async function existingFile(ws: Workspace, p: string, arg: string): Promise<string> {
  const abs = await ws.resolveForRead(p, arg);
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st?.isFile()) throw new InvalidArgumentsError(`${arg} ${JSON.stringify(p)} does not exist in the workspace`, { [arg]: p });
  return abs;
}
