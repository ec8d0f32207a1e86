import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunSimulationInputSchema } from '../../../../actors/adapters/circuit/circuit.schemas.ts';
import { runSimulationTool } from '../../../../actors/adapters/circuit/run-simulation.tool.ts';
import type { ToolContext } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { KICAD6_DEMOS, kicadDemos } from '../../../support/kicad-demos.ts';

/** KiCad 6's simulation demos (Spice_* fields; test/fixtures/kicad6, see test/support/kicad-demos.ts). */
export const DEMOS = path.join(kicadDemos(6) ?? KICAD6_DEMOS, 'simulation');

/** A temporary workspace holding copies of the named simulation demos under `simulation/<name>/`. */
export function demoWorkspace(names: string[]): { root: string; ws: Workspace; remove(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'eda-spice-'));
  for (const name of names) fs.cpSync(path.join(DEMOS, name), path.join(root, 'simulation', name), { recursive: true });
  return { root, ws: new Workspace(root), remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** `circuit.run_simulation`'s handler called directly (real ngspice), with a context holding only what it uses. */
export async function simulate(ws: Workspace, args: Record<string, unknown>) {
  const tool = runSimulationTool(ws);
  const tc = { outputFiles: [] as string[], signal: AbortSignal.timeout(60_000) } as unknown as ToolContext;
  return tool.handler(RunSimulationInputSchema.parse(args), tc);
}

/** A SPICE number (`1k`, `100n`, `2.2Meg`, `1e-3`) as a JS number. */
export function spiceNumber(text: string): number {
  const m = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(meg|[tgkmunpf])?/i.exec(text.trim());
  if (!m) throw new Error(`not a SPICE number: ${text}`);
  const scale: Record<string, number> = {
    t: 1e12,
    g: 1e9,
    meg: 1e6,
    k: 1e3,
    m: 1e-3,
    u: 1e-6,
    n: 1e-9,
    p: 1e-12,
    f: 1e-15,
  };
  return Number(m[1]) * (m[2] ? scale[m[2].toLowerCase()]! : 1);
}

/**
 * The frequency where a magnitude response first falls `drop` dB under its value at the first point, interpolated
 * linearly in dB against log frequency between the two points around the crossing.
 */
export function crossing(freq: number[], db: number[], drop = 3.0103): number {
  const level = db[0]! - drop;
  for (let k = 1; k < freq.length; k++) {
    if (db[k]! <= level) {
      const t = (db[k - 1]! - level) / (db[k - 1]! - db[k]!);
      return 10 ** (Math.log10(freq[k - 1]!) + t * (Math.log10(freq[k]!) - Math.log10(freq[k - 1]!)));
    }
  }
  throw new Error(`the response never falls ${drop} dB`);
}
