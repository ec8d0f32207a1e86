import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { ServiceSchema } from 'moleculer';
import { z } from 'zod';
import type { Infra } from '../../../../brokers/infra.ts';
import { KernelTaskError } from '../../../../workers/cad/host/protocol.ts';
import type { KernelPool } from '../../../../workers/cad/host/pool.ts';
import { acquireKernelPool, releaseKernelPool } from '../../../../workers/cad/host/shared.ts';
import { createAdapterService, type AdapterDefinition } from '../adapter.service.ts';
import { InvalidArgumentsError, ToolError, ToolUnavailableError, type ToolContext } from '../tool.ts';
import { Workspace, workspaceRoot } from '../workspace.ts';

/** What the CAD tools share: the process's kernel pool (acquired when the adapter starts) and the workspace. */
export interface CadToolDeps {
  infra: Infra;
  workspace: Workspace;
  pool(): KernelPool;
}

/** The sandbox rules of a kernel script as the tools of both CAD adapters describe them. */
export const SANDBOX_DOC =
  'Sandboxed: no module loading, no process, file or network access, CPU time and memory limits; a script that runs past the call deadline ends as TOOL_TIMEOUT and its kernel thread is killed. ' +
  '`result` comes back as plain data (shapes as their measured properties), capped at 20000 serialized characters with result_truncated: true.';

/** A bounding box in the global frame, mm (min, max, size). */
export const BBoxOutSchema = z.object({
  min: z.array(z.number()),
  max: z.array(z.number()),
  size: z.array(z.number()),
});

/** Properties every tool that reports a solid returns. */
export const PropertiesOutSchema = z.looseObject({
  volume_mm3: z.number(),
  surface_area_mm2: z.number(),
  bounding_box: BBoxOutSchema,
  center_of_mass: z.array(z.number()),
  is_valid: z.boolean(),
});

/** A solid written to the workspace: `cad_file` relative to the workspace root, plus its properties. */
export const CadFileOutSchema = PropertiesOutSchema.extend({
  cad_file: z.string(),
  format: z.string(),
  size_bytes: z.number().int(),
});

/** Where the wasm of the kernel lives; missing means the package was not installed. */
function kernelWasm(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('replicad-opencascadejs/package.json');
    const wasm = path.join(path.dirname(pkg), 'dist', 'replicad_single.wasm');
    return fs.existsSync(wasm) ? wasm : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Engine check of a CAD adapter: the kernel package is installed and its threads could start. Unhealthy names
 * what is missing, so calls fail with TOOL_UNAVAILABLE instead of fabricating anything.
 */
export async function checkKernel(deps: {
  current(): KernelPool | undefined;
}): Promise<{ status: 'healthy' | 'unhealthy'; message?: string }> {
  if (!kernelWasm())
    return {
      status: 'unhealthy',
      message:
        'the OpenCascade kernel (npm package replicad-opencascadejs 1.1.0, replicad_single.wasm) is not installed',
    };
  const err = deps.current()?.startupError();
  return err
    ? { status: 'unhealthy', message: `the OpenCascade kernel threads do not start: ${err}` }
    : { status: 'healthy' };
}

/**
 * Builds a CAD adapter actor: the kit's adapter service plus lifecycle hooks that take the shared kernel pool when
 * the actor starts (no thread starts until a call needs one) and give it back when it stops.
 */
export function createCadAdapter(
  def: Omit<AdapterDefinition, 'tools' | 'checkEngine'> & { tools(deps: CadToolDeps): AdapterDefinition['tools'] },
) {
  return (infra: Infra): ServiceSchema => {
    let pool: KernelPool | undefined;
    const deps: CadToolDeps = {
      infra,
      workspace: new Workspace(workspaceRoot(infra.config)),
      pool: () => (pool ??= acquireKernelPool(infra.config, infra.log).pool),
    };
    const schema = createAdapterService({
      ...def,
      tools: def.tools(deps) as AdapterDefinition['tools'],
      checkEngine: () => checkKernel({ current: () => pool }),
    })(infra);
    return {
      ...schema,
      async started() {
        await deps.workspace.ensure();
        deps.pool();
        await (schema.started as ((this: unknown) => unknown) | undefined)?.call(this);
      },
      async stopped() {
        if (pool) await releaseKernelPool(pool);
        pool = undefined;
      },
    };
  };
}

/** Runs a kernel task for a tool call (the call's deadline or cancel kills the thread) and maps its failures. */
export async function kernelRun<T>(tc: ToolContext, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await run(tc.signal);
  } catch (err) {
    throw toToolError(err, tc);
  }
}

/** A kernel failure as the kit's error classes: invalid arguments, unavailable, or a tool error with the kernel's words. */
export function toToolError(err: unknown, tc?: Pick<ToolContext, 'log'>): Error {
  if (!(err instanceof KernelTaskError)) return err as Error;
  const details = { kind: err.kind, ...(err.details ?? {}) };
  if (err.kind === 'invalid') return new InvalidArgumentsError(err.message, details);
  if (err.kind === 'unavailable') return new ToolUnavailableError(err.message, details);
  if (err.kind === 'internal') tc?.log.error({ err: err.message, details }, 'cad kernel task failed unexpectedly');
  return new ToolError(err.message, details);
}

/** Where a call's kernel writes (a file in its scratch folder) and, when the caller named one, the workspace path it goes to. */
export interface OutputTarget {
  path: string;
  given?: string;
}

/**
 * The output of a call: the kernel always writes into the call's fresh scratch folder (same file name, so the extension
 * still picks the format); a caller's `output_path` is checked before any work (an existing file is refused unless
 * `overwrite`) and the file is moved there afterwards through the workspace's confinement (no write follows a
 * symlink; README "Workspace confinement").
 */
export async function outputPath(
  deps: CadToolDeps,
  tool: string,
  given: string | undefined,
  fallbackName: string,
  overwrite = false,
): Promise<OutputTarget> {
  const target = given !== undefined ? await deps.workspace.resolveOutput(given, 'output_path', overwrite) : undefined;
  const dir = await deps.workspace.scratch(tool);
  return target ? { path: path.join(dir, path.basename(target)), given } : { path: path.join(dir, fallbackName) };
}

/** Reports a written file (moved to the caller's output_path first, if any): `cad_file` relative to the workspace, listed in output_files. */
export async function reportFile<T extends { path: string }>(
  deps: CadToolDeps,
  tc: ToolContext,
  written: T,
  target: OutputTarget,
): Promise<Omit<T, 'path'> & { cad_file: string }> {
  const { path: abs, ...rest } = written;
  const placed = target.given !== undefined ? await deps.workspace.moveInto(abs, target.given, 'output_path') : abs;
  const rel = deps.workspace.relative(placed);
  tc.outputFiles.push(rel);
  return { cad_file: rel, ...rest };
}
