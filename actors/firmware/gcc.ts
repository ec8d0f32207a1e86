import fs from 'node:fs/promises';
import path from 'node:path';
import type { FirmwareDiagnostic } from '../../contracts/firmware.ts';
import { spawnEngine, type EngineRun } from '../adapters/kit/engines/spawn.ts';
import { engineCommand, type EngineSandbox } from '../adapters/kit/sandbox.ts';

/** The compiler flags of every build: C11, every warning on and an error, optimised as a release build is. */
export const GCC_FLAGS = ['-std=c11', '-Wall', '-Wextra', '-Werror', '-O2'] as const;

/** What a node without the compiler says (health, and every build it is asked for). */
export const GCC_MISSING = 'the C compiler gcc is not installed (not found on PATH; Debian package gcc)';

/** gcc's plain diagnostics (`-fdiagnostics-plain-output`): `file:line:column: severity: message`. */
const DIAG = /^(.+?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$/;

/** The `file:line:col` diagnostics of gcc's stderr, files relative to the source folder; other lines are left out. */
export function parseDiagnostics(stderr: string): FirmwareDiagnostic[] {
  return stderr.split('\n').flatMap((l) => {
    const m = DIAG.exec(l);
    if (!m) return [];
    const file = m[1]!.replace(/^\.\//, '');
    const severity = m[4] as FirmwareDiagnostic['severity'];
    return [{ file, line: Number(m[2]), column: Number(m[3]), severity, message: m[5]! }];
  });
}

/** One sandboxed run of a toolchain program (`gcc` by default) in `cwd`, with `root` (the build folder) its only writable place. */
export async function runGcc(
  args: readonly string[],
  opts: { root: string; cwd: string; signal: AbortSignal; mode?: EngineSandbox; program?: string; missing?: string },
): Promise<EngineRun & { sandboxed: boolean }> {
  const cmd = await engineCommand(opts.program ?? 'gcc', args, {
    scratch: opts.root,
    cwd: opts.cwd,
    missing: opts.missing ?? GCC_MISSING,
    mode: opts.mode,
    env: { LANG: 'C', LC_ALL: 'C' },
  });
  const run = await spawnEngine(cmd, { cwd: opts.cwd, signal: opts.signal });
  return { ...run, sandboxed: cmd.sandboxed };
}

/**
 * How one target is built: its compiler, the flags of each compile, the link's extra arguments, and the output folder
 * and program name under the build folder's `build/`. The host build is `HOST`; a cross build names its own.
 */
export interface Toolchain {
  cc: string;
  missing: string;
  compileFlags: readonly string[];
  /** Flags that make its diagnostics one `file:line:col: severity: message` line each (recorded in no result). */
  diagnosticFlags: readonly string[];
  linkArgs: readonly string[];
  /** Sub-folder of `build/` for the objects and the program ('' = build/ itself). */
  subdir: string;
  program: string;
}

export const HOST: Toolchain = {
  cc: 'gcc',
  missing: GCC_MISSING,
  compileFlags: GCC_FLAGS,
  diagnosticFlags: ['-fdiagnostics-plain-output'],
  linkArgs: ['-O2', '-lm'],
  subdir: '',
  program: 'firmware',
};

/** The result of compiling and linking one build's sources. */
export interface GccBuild {
  passed: boolean;
  diagnostics: FirmwareDiagnostic[];
  objects: { file: string; bytes: number }[];
  binaryBytes: number | null;
  output: string;
  sandboxed: boolean;
}

/**
 * Compiles each `.c` source with `tc` (in order, one compiler run per file, so a diagnostic names its file as given)
 * into `out` (or its `tc.subdir`), then links them into the program there when every compile passed. An abort
 * (timeout) kills the running compiler and rejects with the signal's reason.
 */
export async function gccBuild(
  sources: readonly string[],
  dirs: { root: string; src: string; out: string },
  signal: AbortSignal,
  mode?: EngineSandbox,
  tc: Toolchain = HOST,
): Promise<GccBuild & { programPath: string }> {
  const diagnostics: FirmwareDiagnostic[] = [];
  const objects: { file: string; bytes: number }[] = [];
  const other: string[] = [];
  let sandboxed = true;
  let failed = false;
  const out = path.join(dirs.out, tc.subdir);
  await fs.mkdir(out, { recursive: true });
  const run = (args: readonly string[]) =>
    runGcc(args, { ...dirs, cwd: dirs.src, signal, mode, program: tc.cc, missing: tc.missing });
  const objOf = (c: string) => path.join(out, `${c.replace(/\//g, '__').slice(0, -2)}.o`);
  for (const c of sources.filter((s) => s.endsWith('.c'))) {
    const cc = await run([...tc.compileFlags, ...tc.diagnosticFlags, '-I', '.', '-c', c, '-o', objOf(c)]);
    if (cc.aborted) throw signal.reason;
    sandboxed &&= cc.sandboxed;
    const diags = parseDiagnostics(cc.stderr);
    diagnostics.push(...diags);
    if (!diags.length && cc.stderr.trim()) other.push(cc.stderr.trim());
    if (cc.exitCode !== 0) failed = true;
    else objects.push({ file: c, bytes: (await fs.stat(objOf(c))).size });
  }
  let binaryBytes: number | null = null;
  const bin = path.join(out, tc.program);
  if (!failed) {
    const link = await run(['-o', bin, ...objects.map((o) => objOf(o.file)), ...tc.linkArgs]);
    if (link.aborted) throw signal.reason;
    if (link.stderr.trim()) other.push(link.stderr.trim());
    if (link.exitCode === 0) binaryBytes = (await fs.stat(bin)).size;
    else failed = true;
  }
  return {
    passed: !failed,
    diagnostics,
    objects,
    binaryBytes,
    output: other.join('\n').slice(0, 4096),
    sandboxed,
    programPath: bin,
  };
}
