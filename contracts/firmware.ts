import { z } from 'zod';
import { AdapterHealthStatusSchema } from './tools.ts';

/**
 * A source path inside a build: relative, `/`-separated, each segment a plain name (letters, digits, `_`, `-`, `.`,
 * not starting with `.`), ending in `.c` or `.h`. So no absolute path, no `..`, no hidden file, no backslash; the
 * firmware actor still resolves each one through the workspace confinement rule (symlinks that leave it are refused).
 */
export const FirmwareSourcePathSchema = z
  .string()
  .min(3)
  .max(200)
  .regex(
    /^(?:[A-Za-z0-9_][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_][A-Za-z0-9_.-]*\.[ch]$/,
    'a relative path of plain names (no absolute path, no .., no hidden segment) ending in .c or .h',
  )
  .refine((p) => !p.split('/').includes('..'), 'must not contain ..');

/** One source file of a build: its path under the build folder and its text (at most 256 KB). */
export const FirmwareFileSchema = z.object({
  path: FirmwareSourcePathSchema,
  content: z.string().max(256 * 1024),
});
export type FirmwareFile = z.infer<typeof FirmwareFileSchema>;

/** The scope of a build: a run (its sources land in `firmware/<run_id>/` of the workspace). */
export const FirmwareBuildIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/, 'letters, digits, _ and - only');

/** `firmware.build`: compile and link these sources on the host (gcc, C11, every warning an error). */
export const FirmwareBuildRequestSchema = z.object({
  run_id: FirmwareBuildIdSchema,
  files: z
    .array(FirmwareFileSchema)
    .min(1)
    .max(64)
    .refine((fs) => new Set(fs.map((f) => f.path)).size === fs.length, 'file paths must be unique')
    .refine((fs) => fs.some((f) => f.path.endsWith('.c')), 'at least one .c file'),
  /** Seconds the whole build may take (each gcc run is killed when it runs out). */
  timeout_seconds: z.number().int().min(1).max(600).default(120),
});
export type FirmwareBuildRequest = z.infer<typeof FirmwareBuildRequestSchema>;

/** One compiler diagnostic, as gcc printed it (`file:line:column: severity: message`); file relative to the sources. */
export const FirmwareDiagnosticSchema = z.object({
  file: z.string(),
  line: z.number().int().min(0),
  column: z.number().int().min(0),
  severity: z.enum(['error', 'warning', 'note', 'fatal error']),
  message: z.string(),
});
export type FirmwareDiagnostic = z.infer<typeof FirmwareDiagnosticSchema>;

/** What a build answers: a failing compile is a result (passed false, its diagnostics), never an error. */
export const FirmwareBuildResultSchema = z.object({
  passed: z.boolean(),
  /** `gcc (Debian 12.2.0-14) 12.2.0`: the first line of `gcc --version`. */
  compiler: z.string(),
  flags: z.array(z.string()),
  diagnostics: z.array(FirmwareDiagnosticSchema),
  error_count: z.number().int().min(0),
  warning_count: z.number().int().min(0),
  /** Size in bytes of each object file compiled (sources that failed have none). */
  objects: z.array(z.object({ file: z.string(), bytes: z.number().int().min(0) })),
  /** The linked host program, relative to the workspace root, or null when the build failed. */
  binary: z.object({ path: z.string(), bytes: z.number().int().min(0) }).nullable(),
  /** The build folder relative to the workspace root (`firmware/<run_id>`): sources under src/, outputs under build/. */
  build_dir: z.string(),
  /** Whether gcc ran inside the engine sandbox (bwrap); false only with SERVICE_ENGINE_SANDBOX=off. */
  sandboxed: z.boolean(),
  /** Linker or driver output that is no `file:line:col` diagnostic (first 4 KB), empty when there was none. */
  output: z.string(),
});
export type FirmwareBuildResult = z.infer<typeof FirmwareBuildResultSchema>;

/** `firmware.health`: whether builds can run here; `message` names what is missing (Debian package gcc, bubblewrap). */
export const FirmwareHealthSchema = z.object({
  status: AdapterHealthStatusSchema,
  compiler: z.string().nullable(),
  sandbox: z.enum(['bwrap', 'off']),
  message: z.string().nullable(),
});
export type FirmwareHealth = z.infer<typeof FirmwareHealthSchema>;
