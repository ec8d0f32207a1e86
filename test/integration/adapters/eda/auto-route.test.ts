import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoRouteTool } from '../../../../actors/adapters/eda/auto-route.tool.ts';
import { KICAD_MISSING, KICAD_PYTHON, setKicadPython } from '../../../../actors/adapters/eda/engine.ts';
import { InvalidArgumentsError, ToolUnavailableError } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { toolContext } from './board-support.ts';

const DEMO = '/usr/share/kicad/demos/ecc83/ecc83-pp.kicad_pcb';
const PYTHON = '/usr/bin/python3';
const hasKicad = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import pcbnew'], { stdio: 'ignore' });
    return fs.existsSync(DEMO) && fs.existsSync('/usr/bin/route-rnd');
  } catch {
    return false;
  }
})();

/** Runs a pcbnew snippet with the system interpreter; its last stdout line is JSON (SWIG prints leak notices). */
function pcbnew(code: string, ...args: string[]): unknown {
  const out = execFileSync(PYTHON, ['-c', code, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const line = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .at(-1);
  return JSON.parse(line ?? 'null');
}

const STRIP = `
import json, sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
tracks = list(b.GetTracks())
for t in tracks: b.RemoveNative(t)
zones = [b.GetArea(i) for i in range(b.GetAreaCount())]
for z in zones: b.RemoveNative(z)
pcbnew.SaveBoard(sys.argv[2], b)
print(json.dumps({"removed": len(tracks), "zones": len(zones)}))
`;

const CHECK = `
import json, sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
b.BuildConnectivity()
tracks = [t for t in b.GetTracks()]
print(json.dumps({"unconnected": b.GetConnectivity().GetUnconnectedCount(False),
  "tracks": sum(1 for t in tracks if t.GetClass() == "PCB_TRACK"),
  "vias": sum(1 for t in tracks if t.GetClass() == "PCB_VIA")}))
`;

async function rejection(p: Promise<unknown>): Promise<Error & { details?: unknown }> {
  return p.then(
    () => {
      throw new Error('expected the call to be refused');
    },
    (err: Error) => err,
  );
}

/** Every file under `dir`, relative to it. */
function listing(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}

describe.skipIf(!hasKicad)('eda.auto_route on the ecc83 demo board without its tracks', () => {
  let outer: string;
  let root: string;
  let tool: ReturnType<typeof autoRouteTool>;

  beforeAll(() => {
    outer = fs.mkdtempSync(path.join(os.tmpdir(), 'eda-route-'));
    root = path.join(outer, 'ws');
    fs.mkdirSync(path.join(root, 'boards'), { recursive: true });
    const stripped = pcbnew(STRIP, DEMO, path.join(root, 'boards', 'ecc83.kicad_pcb')) as { removed: number };
    expect(stripped.removed).toBeGreaterThan(0);
    tool = autoRouteTool(new Workspace(root));
  });
  afterAll(() => fs.rmSync(outer, { recursive: true, force: true }));

  it('routes the board into the next revision; KiCad reads it back with the reported unconnected count', async () => {
    const before = listing(root);
    const tc = toolContext();
    const r = await tool.handler({ board_path: 'boards/ecc83.kicad_pcb' }, tc);
    expect(r.output_path).toBe('boards/ecc83.r2.kicad_pcb');
    expect(r.unrouted_before).toBeGreaterThan(0);
    expect(r.unrouted_after).toBeLessThan(r.unrouted_before);
    expect(r.routed_connections).toBe(r.unrouted_before - r.unrouted_after);
    expect(r.completion).toBeCloseTo(r.routed_connections / r.unrouted_before, 3);
    expect(r.tracks_added).toBeGreaterThan(0);
    expect(r.router).toMatch(/^route-rnd /);
    expect(r.drc.unconnected_count).toBe(r.unrouted_after);
    expect(r.drc.violation_count).toBe(
      Object.entries(r.drc.by_type)
        .filter(([t]) => t !== 'unconnected_items')
        .reduce((s, [, n]) => s + n, 0),
    );

    const written = pcbnew(CHECK, path.join(root, r.output_path)) as {
      unconnected: number;
      tracks: number;
      vias: number;
    };
    expect(written.unconnected).toBe(r.unrouted_after);
    expect(written.tracks).toBe(r.tracks_added);
    expect(written.vias).toBe(r.vias_added);

    // The input is untouched; the new revision (and its project file with the design rules) are the only new files.
    const input = pcbnew(CHECK, path.join(root, 'boards', 'ecc83.kicad_pcb')) as {
      unconnected: number;
      tracks: number;
    };
    expect(input).toMatchObject({ unconnected: r.unrouted_before, tracks: 0 });
    const added = listing(root).filter((f) => !before.includes(f));
    expect(added.sort()).toEqual(['boards/ecc83.r2.kicad_pcb', 'boards/ecc83.r2.kicad_pro']);
    expect(tc.outputFiles).toEqual(['boards/ecc83.r2.kicad_pcb', 'boards/ecc83.r2.kicad_pro']);
  });

  it('limits routing to the named nets and numbers the next revision past existing ones', async () => {
    const r = await tool.handler({ board_path: 'boards/ecc83.kicad_pcb', nets: ['GND'] }, toolContext());
    expect(r.output_path).toBe('boards/ecc83.r3.kicad_pcb');
    const full = pcbnew(CHECK, path.join(root, 'boards', 'ecc83.r2.kicad_pcb')) as { tracks: number };
    expect(r.tracks_added).toBeGreaterThan(0);
    expect(r.tracks_added).toBeLessThan(full.tracks);
    expect(r.unrouted_after).toBeLessThan(r.unrouted_before);
    const nets = pcbnew(
      `import json, sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
print(json.dumps({"nets": sorted({t.GetNetname() for t in b.GetTracks()})}))`,
      path.join(root, r.output_path),
    ) as { nets: string[] };
    expect(nets.nets).toEqual(['GND']);
  });

  it('refuses an output outside the workspace as invalid arguments and writes nothing', async () => {
    const before = listing(outer);
    const err = await rejection(
      tool.handler({ board_path: 'boards/ecc83.kicad_pcb', output_path: '../x.kicad_pcb' }, toolContext()),
    );
    expect(err).toBeInstanceOf(InvalidArgumentsError);
    expect(err.message).toMatch(/output_path "\.\.\/x\.kicad_pcb" is outside the workspace/);
    expect(listing(outer)).toEqual(before);
  });

  it('refuses a malformed board naming the file and the line, and writes nothing', async () => {
    const text = fs.readFileSync(path.join(root, 'boards', 'ecc83.kicad_pcb'), 'utf8');
    fs.writeFileSync(path.join(root, 'boards', 'broken.kicad_pcb'), text.slice(0, Math.floor(text.length / 2)));
    const before = listing(root);
    const err = await rejection(tool.handler({ board_path: 'boards/broken.kicad_pcb' }, toolContext()));
    expect(err).toBeInstanceOf(InvalidArgumentsError);
    expect(err.message).toMatch(/board_path "boards\/broken\.kicad_pcb" is not a readable KiCad board: line \d+/);
    expect(listing(root)).toEqual(before);
  });

  it('stops when the call is cancelled, with the reason, and writes nothing', async () => {
    const before = listing(root);
    const reason = new Error('cancelled by the client');
    const err = await rejection(
      tool.handler({ board_path: 'boards/ecc83.kicad_pcb' }, toolContext(AbortSignal.abort(reason))),
    );
    expect(err).toBe(reason);
    expect(listing(root)).toEqual(before);
  });

  it('refuses a net the board does not have', async () => {
    const err = await rejection(
      tool.handler({ board_path: 'boards/ecc83.kicad_pcb', nets: ['NO_SUCH_NET'] }, toolContext()),
    );
    expect(err).toBeInstanceOf(InvalidArgumentsError);
    expect(err.message).toMatch(/NO_SUCH_NET/);
  });

  it('is unavailable naming the Debian package when pcbnew or route-rnd is missing', async () => {
    const saved = { python: KICAD_PYTHON(), path: process.env.PATH };
    try {
      setKicadPython(path.join(outer, 'no-python'));
      const noKicad = await rejection(tool.handler({ board_path: 'boards/ecc83.kicad_pcb' }, toolContext()));
      expect(noKicad).toBeInstanceOf(ToolUnavailableError);
      expect(noKicad.message).toBe(KICAD_MISSING);

      setKicadPython(saved.python);
      // A PATH with the engine sandbox (bwrap, prlimit: the KiCad probe runs in it) but without route-rnd.
      const bin = path.join(outer, 'bin');
      fs.mkdirSync(bin, { recursive: true });
      for (const p of ['bwrap', 'prlimit']) fs.symlinkSync(`/usr/bin/${p}`, path.join(bin, p));
      process.env.PATH = bin;
      const noRouter = await rejection(tool.handler({ board_path: 'boards/ecc83.kicad_pcb' }, toolContext()));
      expect(noRouter).toBeInstanceOf(ToolUnavailableError);
      expect(noRouter.message).toMatch(/route-rnd is not installed .*Debian package route-rnd/);
    } finally {
      setKicadPython(saved.python);
      process.env.PATH = saved.path;
    }
  });
});
