import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/**
 * The simulation fixtures, kept in the repository (test/fixtures/sim: real CalculiX, gmsh and ngspice inputs and outputs
 * with their analytical reference values; read in place, copied into a test's workspace before use).
 */
export const SIM_FIXTURES = fileURLToPath(new URL('../fixtures/sim', import.meta.url));

/** A fresh temp workspace for a test node (`SERVICE_WORKSPACE`), with `remove()` for afterAll. */
export function tempWorkspace(prefix: string): { root: string; remove(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { root, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** Copies a fixture (gunzipping `*.gz`) into `<workspace>/<dest>` and returns `dest`. */
export function copyFixture(workspace: string, name: string, dest = name.replace(/\.gz$/, '')): string {
  const src = fs.readFileSync(path.join(SIM_FIXTURES, name));
  const target = path.join(workspace, dest);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, name.endsWith('.gz') ? zlib.gunzipSync(src) : src);
  return dest;
}

/** Writes `<dir>/<name>.step` with gmsh's OpenCASCADE kernel from .geo statements (a STEP made at test time). */
export function writeStep(dir: string, name: string, geo: string): string {
  fs.writeFileSync(path.join(dir, `${name}.geo`), `SetFactory("OpenCASCADE");\n${geo}\n`);
  execFileSync('gmsh', [`${name}.geo`, '-0', '-format', 'step', '-o', `${name}.step`], { cwd: dir, stdio: 'ignore' });
  return `${name}.step`;
}
