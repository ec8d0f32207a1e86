import fs from 'node:fs/promises';
import type { ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { FirmwareActions } from '../../contracts/actions/firmware.actions.ts';
import type { FirmwareBuildRequest, FirmwareBuildResult, FirmwareHealth } from '../../contracts/firmware.ts';
import { checkEngineSandbox, findProgram, configureEngines } from '../adapters/kit/sandbox.ts';
import { InvalidArgumentsError, ToolError, ToolUnavailableError } from '../adapters/kit/tool.ts';
import { Workspace, workspaceRoot } from '../adapters/kit/workspace.ts';
import { avrBuild } from './avr.ts';
import { GCC_FLAGS, GCC_MISSING, gccBuild, runGcc } from './gcc.ts';
import { buildDir, writeSources } from './sources.ts';

/** How long `gcc --version` may take when health asks. */
const VERSION_TIMEOUT_MS = 10_000;

/**
 * The firmware actor (role `firmware`): an engine at the edge, like the adapters, but with no MCP tool (the tool
 * catalogue is fixed). `firmware.build` writes a build's sources under `firmware/<run_id>/src/` of the workspace
 * (confined: kit/workspace.ts) and compiles them with gcc (C11, -Wall -Wextra -Werror -O2) in the engine sandbox
 * (kit/sandbox.ts), the build folder its only writable place, under a timeout that kills the compiler. A compile
 * error is a result (passed false, gcc's diagnostics); a refused path is VALIDATION_FAILED with nothing written; gcc or
 * the sandbox missing is SERVICE_UNAVAILABLE naming the Debian package, never a fake pass.
 */
export function createFirmwareService(infra: Infra): ServiceSchema {
  const mode = infra.config.SERVICE_ENGINE_SANDBOX;
  configureEngines(infra.config);
  const workspace = new Workspace(workspaceRoot(infra.config));
  /** `gcc --version`, probed once; concurrent callers share the probe in flight, a failed probe is asked again. */
  let version: Promise<string> | undefined;
  /** Builds of one run id, one at a time (they share a folder). */
  const queues = new Map<string, Promise<unknown>>();

  function compilerVersion(): Promise<string> {
    version ??= probeVersion().catch((err: unknown) => {
      version = undefined;
      throw err;
    });
    return version;
  }

  /** The first line of `gcc --version` (run in the sandbox), or ToolUnavailableError when gcc is missing. */
  async function probeVersion(): Promise<string> {
    if (!(await findProgram('gcc'))) throw new ToolUnavailableError(GCC_MISSING, { program: 'gcc', package: 'gcc' });
    await workspace.ensure();
    const dir = await workspace.scratch('firmware.version');
    try {
      const run = await runGcc(['--version'], {
        root: dir,
        cwd: dir,
        signal: AbortSignal.timeout(VERSION_TIMEOUT_MS),
        mode,
      });
      const first = run.stdout.split('\n')[0]?.trim();
      if (run.exitCode !== 0 || !first)
        throw new ToolUnavailableError(
          `gcc --version failed (exit ${run.exitCode}): ${run.stderr.trim().slice(0, 300)}`,
        );
      return first;
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  async function build(req: FirmwareBuildRequest): Promise<FirmwareBuildResult> {
    const compiler = await compilerVersion();
    const dirs = await writeSources(workspace, req.run_id, req.files);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new ToolError(`the firmware build took longer than ${req.timeout_seconds} s`)),
      req.timeout_seconds * 1000,
    );
    try {
      const b = await gccBuild(
        req.files.map((f) => f.path),
        dirs,
        controller.signal,
        mode,
      );
      const dir = buildDir(req.run_id);
      const target = req.target
        ? await avrBuild(
            req.target,
            req.files.map((f) => f.path),
            dirs,
            dir,
            controller.signal,
            mode,
          )
        : null;
      return {
        passed: b.passed && (!target || !target.available || target.passed),
        compiler,
        flags: [...GCC_FLAGS],
        diagnostics: b.diagnostics,
        error_count: b.diagnostics.filter((d) => d.severity.endsWith('error')).length,
        warning_count: b.diagnostics.filter((d) => d.severity === 'warning').length,
        objects: b.objects,
        binary: b.binaryBytes === null ? null : { path: `${dir}/build/firmware`, bytes: b.binaryBytes },
        build_dir: dir,
        sandboxed: b.sandboxed,
        output: b.output,
        target,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `fn` after the builds of the same run id queued before it. */
  function serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = queues.get(id) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    queues.set(id, tail);
    void tail.then(() => queues.get(id) === tail && queues.delete(id));
    return next;
  }

  return {
    name: 'firmware',
    actions: {
      build: action(FirmwareActions.build, async (req) => {
        try {
          return await serial(req.run_id, () => build(req));
        } catch (err) {
          if (err instanceof ToolUnavailableError)
            throw new ActorError('SERVICE_UNAVAILABLE', err.message, { missing: err.details });
          if (err instanceof InvalidArgumentsError) throw ActorError.validation(err.issues(), err.message);
          if (err instanceof ToolError) throw new ActorError('TIMEOUT', err.message);
          throw err;
        }
      }),
      health: action(FirmwareActions.health, async (): Promise<FirmwareHealth> => {
        try {
          const compiler = await compilerVersion();
          const sandbox = await checkEngineSandbox(mode);
          if (sandbox) return { status: 'unhealthy', compiler, sandbox: mode, message: sandbox };
          return { status: 'healthy', compiler, sandbox: mode, message: null };
        } catch (err) {
          return { status: 'unhealthy', compiler: null, sandbox: mode, message: (err as Error).message };
        }
      }),
    },
  };
}
