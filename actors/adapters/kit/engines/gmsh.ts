import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { NamedFaces } from '../../../../workers/simfield/named-faces.ts';
import type { SimFieldPool } from '../../../../workers/simfield/pool.ts';
import { engineCommand } from '../sandbox.ts';
import { ToolError, ToolUnavailableError } from '../tool.ts';

/** Options of one STEP → C3D10 meshing. */
export interface MeshStepOptions {
  /** Absolute path of the STEP (inside the workspace). */
  stepPath: string;
  /** Scratch folder of the call (the `.geo`, gmsh's raw mesh and the solver mesh go here). */
  dir: string;
  /** Where the solver mesh is written; null for the naming only. */
  meshPath: string | null;
  /** Largest element edge; unset: 1/20 of the longest bounding-box side. */
  elementSizeMm?: number;
  minElementSizeMm?: number;
  /** Curved mid-side nodes (follow the geometry); a negative Jacobian falls back to straight ones. */
  curved: boolean;
  signal: AbortSignal;
  pool: SimFieldPool;
}

/** A meshed STEP: the naming (SPEC rule 9), counts, how it was meshed. */
export interface MeshedStep {
  named: NamedFaces;
  gmshSeconds: number;
  curved: boolean;
  warnings: string[];
}

/**
 * The gmsh script: the STEP merged in millimetres (OpenCASCADE applies the file's placements, so coordinates are the
 * twin's frame with placements baked), one physical surface `Face<n>` per B-rep face and one physical volume, so the
 * `.inp` has a node set per face; second-order tetrahedra (cad-kernel.md "gmsh: STEP → C3D10").
 */
function geoScript(o: MeshStepOptions, curved: boolean): string {
  const size = o.elementSizeMm ? `${o.elementSizeMm}` : 'lmax / 20';
  return [
    'Geometry.OCCTargetUnit = "MM";',
    'Merge "part.step";',
    'v() = Volume{:};',
    'If (#v() == 0)',
    '  Error("the STEP has no solid volume to mesh");',
    'EndIf',
    'lmax = Max(General.MaxX - General.MinX, Max(General.MaxY - General.MinY, General.MaxZ - General.MinZ));',
    `Mesh.CharacteristicLengthMax = ${size};`,
    `Mesh.CharacteristicLengthMin = ${o.minElementSizeMm ?? 0};`,
    's() = Surface{:};',
    'For i In {0:#s()-1}',
    '  Physical Surface(Sprintf("Face%g", s(i))) = {s(i)};',
    'EndFor',
    'Physical Volume("SOLID") = Volume{:};',
    'Mesh.ElementOrder = 2;',
    `Mesh.SecondOrderLinear = ${curved ? 0 : 1};`,
    'Mesh.SaveGroupsOfNodes = 1;',
    'Mesh.Optimize = 1;',
    '',
  ].join('\n');
}

const GMSH_MISSING = 'gmsh is not installed: not found on PATH (Debian package gmsh)';

/**
 * Runs gmsh in `dir`, sandboxed with `dir` its only writable place (kit/sandbox.ts); a missing gmsh (or bwrap) is
 * TOOL_UNAVAILABLE naming it; an abort kills its process group.
 */
async function runGmsh(
  dir: string,
  args: string[],
  signal: AbortSignal,
): Promise<{ code: number | null; out: string }> {
  const cmd = await engineCommand('gmsh', args, { scratch: dir, missing: GMSH_MISSING, env: { DISPLAY: '' } });
  if (signal.aborted) throw signal.reason;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, {
      cwd: dir,
      env: cmd.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const add = (d: Buffer) => (out = (out + d.toString('utf8')).slice(-1_000_000));
    child.stdout!.on('data', add);
    child.stderr!.on('data', add);
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    };
    signal.addEventListener('abort', kill, { once: true });
    child.once('error', (err: NodeJS.ErrnoException) => {
      signal.removeEventListener('abort', kill);
      reject(err.code === 'ENOENT' ? new ToolUnavailableError(GMSH_MISSING) : err);
    });
    child.once('close', (code) => {
      signal.removeEventListener('abort', kill);
      if (signal.aborted) reject(signal.reason);
      else resolve({ code, out });
    });
  });
}

/** Meshes a STEP into second-order tetrahedra for CalculiX and names its faces (SPEC rule 9). */
export async function meshStep(o: MeshStepOptions): Promise<MeshedStep> {
  const head = await fs.readFile(o.stepPath).then((b) => b.subarray(0, 200).toString('latin1'));
  if (!head.includes('ISO-10303-21'))
    throw new ToolError(`${path.basename(o.stepPath)} is not a STEP file (no ISO-10303-21 header)`);
  await fs.copyFile(o.stepPath, path.join(o.dir, 'part.step'));
  const warnings: string[] = [];
  const started = performance.now();
  let curved = o.curved;
  for (;;) {
    await fs.writeFile(path.join(o.dir, 'mesh.geo'), geoScript(o, curved));
    const { code, out } = await runGmsh(o.dir, ['mesh.geo', '-3', '-format', 'inp', '-o', 'raw.inp'], o.signal);
    const errors = out.split('\n').filter((l) => /^Error/.test(l.trim()));
    if (code !== 0 || errors.length)
      throw new ToolError(`gmsh could not mesh the STEP: ${errors.slice(0, 5).join(' ') || `exit code ${code}`}`, {
        tail: out.split('\n').slice(-20).join('\n'),
      });
    if (curved && /jac\.?\s*<\s*0|negative jacobian/i.test(out)) {
      warnings.push('curved second-order elements had a negative Jacobian; meshed again with straight mid-side nodes');
      curved = false;
      continue;
    }
    break;
  }
  const named = await o.pool.run(
    'namedFaces',
    { rawMeshPath: path.join(o.dir, 'raw.inp'), meshPath: o.meshPath },
    o.signal,
  );
  await fs.rm(path.join(o.dir, 'raw.inp'), { force: true });
  return { named, gmshSeconds: (performance.now() - started) / 1000, curved, warnings };
}
