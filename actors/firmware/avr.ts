import fs from 'node:fs/promises';
import path from 'node:path';
import type { FirmwareMcu, FirmwareTargetBuild } from '../../contracts/firmware.ts';
import type { EngineSandbox } from '../adapters/kit/sandbox.ts';
import { findProgram } from '../adapters/kit/sandbox.ts';
import { GCC_FLAGS, gccBuild, runGcc, type Toolchain } from './gcc.ts';

/** What a node without the AVR cross toolchain says (the target build is then not run, never claimed). */
export const AVR_GCC_MISSING =
  'the AVR cross compiler avr-gcc is not installed (not found on PATH; Debian packages gcc-avr and avr-libc)';

/**
 * The microcontrollers a cross build knows: flash and SRAM from the datasheet (ATmega328P: 32 KB flash, 2 KB SRAM)
 * and the clock the firmware is built for (F_CPU: the internal 8 MHz RC oscillator with CKDIV8 cleared, the fuses the
 * bring-up plan sets).
 */
export const MCUS: Record<FirmwareMcu, { flash: number; ram: number; fcpu: number }> = {
  atmega328p: { flash: 32_768, ram: 2_048, fcpu: 8_000_000 },
};

/** avr-gcc flags: the host build's C11 and warnings, optimised for size, the part and its clock. */
export const avrFlags = (mcu: FirmwareMcu): string[] => [
  ...GCC_FLAGS.filter((f) => f !== '-O2'),
  '-Os',
  `-mmcu=${mcu}`,
  `-DF_CPU=${MCUS[mcu].fcpu}UL`,
];

const toolchain = (mcu: FirmwareMcu): Toolchain => ({
  cc: 'avr-gcc',
  missing: AVR_GCC_MISSING,
  compileFlags: avrFlags(mcu),
  // gcc-avr 5.4 predates -fdiagnostics-plain-output: no caret lines, no colour.
  diagnosticFlags: ['-fno-diagnostics-show-caret', '-fdiagnostics-color=never'],
  // printf with %f (the log prints the readings) needs avr-libc's floating-point vfprintf.
  linkArgs: [`-mmcu=${mcu}`, '-Os', '-Wl,-u,vfprintf', '-lprintf_flt', '-lm'],
  subdir: mcu,
  program: 'firmware.elf',
});

/** `avr-gcc --version`'s first line, once per process. */
let avrVersion: Promise<string> | undefined;

/** Section sizes of `avr-size -A`: `.text 5406 0` lines. */
export function sectionSizes(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^(\.[\w.]+)\s+(\d+)\s+\d+\s*$/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

/**
 * Builds the sources for `mcu` with avr-gcc in the engine sandbox, then reads the program's flash and RAM use
 * (avr-size) and writes its Intel HEX image (avr-objcopy) beside it. A program over the part's flash or RAM fails the
 * build. Without avr-gcc on PATH: `available` false and the reason, nothing built.
 */
export async function avrBuild(
  mcu: FirmwareMcu,
  sources: readonly string[],
  dirs: { root: string; src: string; out: string },
  buildDir: string,
  signal: AbortSignal,
  mode?: EngineSandbox,
): Promise<FirmwareTargetBuild> {
  const part = MCUS[mcu];
  const base = {
    mcu,
    flags: avrFlags(mcu),
    flash_max_bytes: part.flash,
    ram_max_bytes: part.ram,
  };
  const none = { diagnostics: [], error_count: 0, warning_count: 0, flash_bytes: null, ram_bytes: null, hex: null };
  const tools = await Promise.all(['avr-gcc', 'avr-size', 'avr-objcopy'].map((p) => findProgram(p)));
  if (tools.some((t) => !t))
    return { ...base, ...none, available: false, reason: AVR_GCC_MISSING, compiler: null, passed: false, output: '' };
  const tool = (program: string, args: readonly string[]) =>
    runGcc(args, { ...dirs, cwd: dirs.src, signal, mode, program, missing: AVR_GCC_MISSING });
  // The compiler's name line, asked once per process (as the host gcc's is); a failed ask is asked again next build.
  avrVersion ??= tool('avr-gcc', ['--version']).then(
    (v) => v.stdout.split('\n')[0]?.trim() || 'avr-gcc',
    (err: unknown) => {
      avrVersion = undefined;
      throw err;
    },
  );
  const compiler = await avrVersion;
  const b = await gccBuild(sources, dirs, signal, mode, toolchain(mcu));
  const counts = {
    diagnostics: b.diagnostics,
    error_count: b.diagnostics.filter((d) => d.severity.endsWith('error')).length,
    warning_count: b.diagnostics.filter((d) => d.severity === 'warning').length,
  };
  if (!b.passed)
    return { ...base, ...none, ...counts, available: true, reason: null, compiler, passed: false, output: b.output };
  const size = await tool('avr-size', ['-A', b.programPath]);
  if (size.aborted) throw signal.reason;
  const s = sectionSizes(size.stdout);
  const flash = (s['.text'] ?? 0) + (s['.data'] ?? 0);
  const ram = (s['.data'] ?? 0) + (s['.bss'] ?? 0) + (s['.noinit'] ?? 0);
  const hexPath = path.join(path.dirname(b.programPath), 'firmware.hex');
  const hex = await tool('avr-objcopy', ['-O', 'ihex', '-R', '.eeprom', b.programPath, hexPath]);
  if (hex.aborted) throw signal.reason;
  const over = [
    flash > part.flash ? `flash ${flash} bytes over the ${part.flash} of the ${mcu}` : '',
    ram > part.ram ? `static RAM ${ram} bytes over the ${part.ram} of the ${mcu}` : '',
  ].filter(Boolean);
  const output = [b.output, size.exitCode !== 0 ? size.stderr.trim() : '', hex.stderr.trim(), ...over]
    .filter(Boolean)
    .join('\n')
    .slice(0, 4096);
  const hexBytes = hex.exitCode === 0 ? (await fs.stat(hexPath)).size : null;
  return {
    ...base,
    ...counts,
    available: true,
    reason: null,
    compiler,
    passed: size.exitCode === 0 && hexBytes !== null && over.length === 0,
    flash_bytes: size.exitCode === 0 ? flash : null,
    ram_bytes: size.exitCode === 0 ? ram : null,
    hex: hexBytes === null ? null : { path: `${buildDir}/build/${mcu}/firmware.hex`, bytes: hexBytes },
    output,
  };
}
