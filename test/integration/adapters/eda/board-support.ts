import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../../../../actors/adapters/kit/tool.ts';

/** The KiCad demo projects (Debian kicad-demos) with a board: folder, board file. */
export const DEMOS = '/usr/share/kicad/demos';
export const DEMO_BOARDS: string[] = fs.existsSync(DEMOS)
  ? fs
      .readdirSync(DEMOS)
      .flatMap((d) =>
        fs.statSync(path.join(DEMOS, d)).isDirectory()
          ? fs
              .readdirSync(path.join(DEMOS, d))
              .filter((f) => f.endsWith('.kicad_pcb'))
              .map((f) => `${d}/${f}`)
          : [],
      )
      .sort()
  : [];

/** A temp workspace holding copies of the demo boards (with their project files) under `demos/`. */
export function demoWorkspace(prefix: string): {
  root: string;
  board(rel: string): string;
  schematic(rel: string): string;
  remove(): void;
} {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    root,
    board(rel: string) {
      const dir = path.join(root, 'demos', path.dirname(rel));
      fs.mkdirSync(dir, { recursive: true });
      const stem = path.basename(rel, '.kicad_pcb');
      for (const ext of ['kicad_pcb', 'kicad_pro', 'kicad_dru']) {
        const src = path.join(DEMOS, path.dirname(rel), `${stem}.${ext}`);
        if (fs.existsSync(src)) fs.copyFileSync(src, path.join(dir, `${stem}.${ext}`));
      }
      return `demos/${rel}`;
    },
    /** A demo schematic with every sheet of its folder (its sub-sheets), at `demos/<rel>`. */
    schematic(rel: string) {
      const dir = path.join(root, 'demos', path.dirname(rel));
      fs.mkdirSync(dir, { recursive: true });
      for (const f of fs.readdirSync(path.join(DEMOS, path.dirname(rel))))
        if (f.endsWith('.kicad_sch')) fs.copyFileSync(path.join(DEMOS, path.dirname(rel), f), path.join(dir, f));
      return `demos/${rel}`;
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** The context a tool handler gets from the kit, reduced to what the eda board tools use. */
export function toolContext(signal: AbortSignal = AbortSignal.timeout(120_000)): ToolContext {
  const noop = () => undefined;
  const log = { info: noop, warn: noop, error: noop, debug: noop, trace: noop, fatal: noop, child: () => log };
  return {
    callId: 'test',
    caller: { kind: 'stdio', transport: 'stdio' },
    signal,
    progress: noop,
    notify: async () => true,
    request: async () => ({}),
    log,
    ctx: {},
    outputFiles: [],
  } as unknown as ToolContext;
}

/** The error a handler rejected with (fails the test when it resolved). */
export async function rejection(p: Promise<unknown>): Promise<Error & { details?: unknown }> {
  return p.then(
    (v) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(v).slice(0, 500)}`);
    },
    (e: unknown) => e as Error & { details?: unknown },
  );
}

/** Every file under `dir`, relative to it. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile());
}
