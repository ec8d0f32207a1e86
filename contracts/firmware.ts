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

/** Microcontrollers a cross build targets (avr-gcc's `-mmcu` names), with their flash and RAM. */
export const FirmwareMcuSchema = z.enum(['atmega328p']);
export type FirmwareMcu = z.infer<typeof FirmwareMcuSchema>;

/**
 * `firmware.build`: compile and link these sources on the host (gcc, C11, every warning an error) and, when `target`
 * names a microcontroller, for it too (its cross compiler, the same flags but -Os): the program's flash and RAM use.
 */
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
  target: FirmwareMcuSchema.optional(),
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

/**
 * The cross build for the target microcontroller. `available` false (with `reason`) when this node has no cross
 * compiler: nothing was built and nothing is claimed. Flash is .text + .data, RAM .data + .bss (static use; the stack
 * comes on top), as avr-size counts them; the Intel HEX image is what the ISP programmer writes.
 */
export const FirmwareTargetBuildSchema = z.object({
  mcu: FirmwareMcuSchema,
  available: z.boolean(),
  reason: z.string().nullable(),
  compiler: z.string().nullable(),
  flags: z.array(z.string()),
  passed: z.boolean(),
  diagnostics: z.array(FirmwareDiagnosticSchema),
  error_count: z.number().int().min(0),
  warning_count: z.number().int().min(0),
  flash_bytes: z.number().int().min(0).nullable(),
  flash_max_bytes: z.number().int().min(1),
  ram_bytes: z.number().int().min(0).nullable(),
  ram_max_bytes: z.number().int().min(1),
  hex: z.object({ path: z.string(), bytes: z.number().int().min(0) }).nullable(),
  output: z.string(),
});
export type FirmwareTargetBuild = z.infer<typeof FirmwareTargetBuildSchema>;

/**
 * What a build answers: a failing compile is a result (passed false, its diagnostics), never an error. `passed` holds
 * for the host build and, when a target was asked for and could be built, the target build too.
 */
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
  /** The cross build, when the request named a target; null otherwise. */
  target: FirmwareTargetBuildSchema.nullable(),
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
