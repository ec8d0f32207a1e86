import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What one sandboxed engine run may take (README "Engine sandbox"; issue 27, finding 11): processes, address space
 * and CPU time, each 0 for no limit. Applied inside bwrap by `prlimit` (util-linux) as RLIMIT_NPROC, RLIMIT_AS and
 * RLIMIT_CPU. RLIMIT_NPROC does not bind a process whose user is root outside the sandbox (the kernel exempts it), so
 * where a cgroup pids controller is writable (cgroup v1 `pids`, or v2 with `pids` delegated) each run also gets a
 * pids cgroup of its own with `pids.max` at the cap. With the sandbox off the container's limits apply instead.
 */
export interface EngineLimits {
  /** Processes and threads at once (RLIMIT_NPROC, and pids.max where a cgroup is available). */
  maxProcs: number;
  /** Address space of each process, MB (RLIMIT_AS). */
  memoryMb: number;
  /** CPU time of each process, seconds (RLIMIT_CPU: SIGXCPU, then SIGKILL). */
  cpuSeconds: number;
}

/** The defaults (brokers/config.ts): room for every engine the service runs, far below what a runaway would take. */
export const DEFAULT_ENGINE_LIMITS: EngineLimits = { maxProcs: 256, memoryMb: 2048, cpuSeconds: 3600 };

let processLimits: EngineLimits = DEFAULT_ENGINE_LIMITS;

/** Set once from the configuration by the adapters that run engines. */
export function setEngineLimits(limits: EngineLimits): void {
  processLimits = limits;
}

export function engineLimits(): EngineLimits {
  return processLimits;
}

/** prlimit's options for `limits` (none set: no prlimit at all). */
export function prlimitOptions(limits: EngineLimits): string[] {
  return [
    ...(limits.maxProcs > 0 ? [`--nproc=${limits.maxProcs}`] : []),
    ...(limits.memoryMb > 0 ? [`--as=${limits.memoryMb * 2 ** 20}`] : []),
    ...(limits.cpuSeconds > 0 ? [`--cpu=${limits.cpuSeconds}`] : []),
  ];
}

export const PRLIMIT_MISSING =
  'the engine limits need prlimit: not found on PATH (Debian package util-linux); set SERVICE_ENGINE_MAX_PROCS, SERVICE_ENGINE_MEMORY_MB and SERVICE_ENGINE_CPU_SECONDS to 0 to run engines without limits';

/** The folder under which the service makes one pids cgroup per engine run, or null where none is writable. */
let pidsParent: string | null | undefined;
/** A run's cgroup older than this and empty is removed by the next run (its process joins it within milliseconds). */
const SWEEP_AFTER_MS = 60_000;

function findPidsParent(): string | null {
  const own = (controller: string) =>
    fs
      .readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find(([, ctl]) => ctl === controller)?.[2];
  const candidates: string[] = [];
  try {
    const v1 = own('pids');
    if (v1 !== undefined) candidates.push(path.join('/sys/fs/cgroup/pids', v1));
    const v2 = own('');
    if (v2 !== undefined && fs.readFileSync(path.join('/sys/fs/cgroup', v2, 'cgroup.subtree_control'), 'utf8'))
      candidates.push(path.join('/sys/fs/cgroup', v2));
  } catch {
    // no cgroup information: rlimits only
  }
  for (const base of candidates) {
    // One folder for every process of the service: nothing is left behind per process.
    const dir = path.join(base, 'service-engines');
    try {
      fs.mkdirSync(dir, { recursive: true });
      if (fs.existsSync(path.join(dir, 'pids.max')) || tryChild(dir)) return dir;
    } catch {
      // not writable here
    }
  }
  return null;
}

/** Removes the run cgroups of finished runs: empty ones older than SWEEP_AFTER_MS (a busy one refuses rmdir). */
function sweep(parent: string): void {
  const now = Date.now();
  for (const e of fs.readdirSync(parent, { withFileTypes: true })) {
    if (!e.isDirectory() || !e.name.startsWith('run-')) continue;
    const dir = path.join(parent, e.name);
    fs.promises
      .stat(dir)
      .then((st) => (now - st.mtimeMs > SWEEP_AFTER_MS ? fs.promises.rmdir(dir) : undefined))
      .catch(() => undefined);
  }
}

/** Whether a child cgroup of `dir` gets a pids.max (v2 with pids delegated); the probe child is removed. */
function tryChild(dir: string): boolean {
  const probe = path.join(dir, 'probe');
  try {
    fs.mkdirSync(probe);
    return fs.existsSync(path.join(probe, 'pids.max'));
  } finally {
    fs.rmdirSync(probe);
  }
}

/**
 * A pids cgroup of its own for one run, capped at `maxProcs`: the `cgroup.procs` file the launcher writes its own pid
 * into before it starts bwrap, or null where no cgroup is writable. Cgroups of finished runs are removed on the way.
 */
export function runPidsCgroup(maxProcs: number): string | null {
  if (maxProcs <= 0) return null;
  pidsParent ??= findPidsParent();
  if (!pidsParent) return null;
  sweep(pidsParent);
  const dir = path.join(pidsParent, `run-${crypto.randomUUID()}`);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'pids.max'), String(maxProcs));
    return path.join(dir, 'cgroup.procs');
  } catch {
    return null;
  }
}
