import crypto from 'node:crypto';
import { call } from '../../../../brokers/actions.ts';
import { FirmwareActions } from '../../../../contracts/actions/firmware.actions.ts';
import type { FirmwareBuildResult, FirmwareMcu } from '../../../../contracts/firmware.ts';
import type { PhaseInput } from '../../executor.ts';
import { PhaseStop } from '../tools.ts';
import type { SourceFile } from './firmware-scaffold.ts';

/** Seconds the firmware actor may take for one build (host and target: a dozen compiler runs and two links). */
const BUILD_TIMEOUT_S = 120;

/** The failure kind of a `firmware.build` call that did not answer a result (catalogue code -> failure taxonomy). */
function stopOf(err: unknown): PhaseStop {
  const e = err as { type?: string; code?: number; message?: string };
  const msg = `firmware.build: ${e.message ?? String(err)}`;
  if (e.type === 'SERVICE_UNAVAILABLE' || e.type === 'SERVICE_NOT_FOUND' || e.type === 'SERVICE_NOT_AVAILABLE')
    return new PhaseStop('capability', `${msg} (the firmware role builds with gcc, Debian package gcc)`);
  if (e.type === 'VALIDATION_FAILED') return new PhaseStop('data', msg);
  if (e.type === 'TIMEOUT' || e.type === 'REQUEST_TIMEOUT') return new PhaseStop('transient', msg);
  return new PhaseStop('tool', msg);
}

/**
 * Builds the sources on the firmware actor (`firmware.build` over the run's bus: the compiler runs at the edge, never in
 * the runs actor). A build that fails stops the phase as a design failure listing gcc's diagnostics; an actor that is
 * absent or lacks gcc stops it as a capability failure.
 */
export async function buildFirmware(
  input: PhaseInput,
  files: SourceFile[],
  target?: FirmwareMcu,
): Promise<FirmwareBuildResult> {
  let out: FirmwareBuildResult;
  try {
    out = await call(
      input.bus,
      FirmwareActions.build,
      { run_id: input.run_id, files, timeout_seconds: BUILD_TIMEOUT_S, ...(target ? { target } : {}) },
      { timeout: (BUILD_TIMEOUT_S + 10) * 1000, retries: 0 },
    );
  } catch (err) {
    throw stopOf(err);
  }
  const failing = [
    {
      passed: out.binary !== null,
      compiler: out.compiler,
      flags: out.flags,
      diags: out.diagnostics,
      output: out.output,
    },
    ...(out.target?.available
      ? [{ ...out.target, compiler: out.target.compiler ?? 'avr-gcc', diags: out.target.diagnostics }]
      : []),
  ].filter((b) => !b.passed);
  if (!out.passed && failing.length) {
    const b = failing[0]!;
    const diags = b.diags
      .filter((d) => d.severity !== 'note')
      .slice(0, 10)
      .map((d) => `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`);
    const more = diags.length ? diags.join('; ') : b.output || 'no diagnostics';
    throw new PhaseStop('design', `the firmware does not build (${b.compiler}, ${b.flags.join(' ')}): ${more}`);
  }
  if (!out.passed) throw new PhaseStop('design', `the firmware does not build: ${out.output || 'no diagnostics'}`);
  return out;
}

/** Each file's path, size and sha256, for the firmware_source document. */
export function fileDigests(files: SourceFile[]) {
  return files.map((f) => ({
    path: f.path,
    bytes: Buffer.byteLength(f.content),
    sha256: crypto.createHash('sha256').update(f.content).digest('hex'),
  }));
}
