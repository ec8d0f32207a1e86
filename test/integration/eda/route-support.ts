import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const PYTHON = '/usr/bin/python3';
export const ECC83 = '/usr/share/kicad/demos/ecc83';

/** Whether KiCad 9's pcbnew, kicad-cli, route-rnd and the ecc83 demo are on this machine. */
export const hasRouting = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import pcbnew'], { stdio: 'ignore' });
    execFileSync('kicad-cli', ['version'], { stdio: 'ignore' });
    return fs.existsSync(path.join(ECC83, 'ecc83-pp.kicad_pcb')) && fs.existsSync('/usr/bin/route-rnd');
  } catch {
    return false;
  }
})();

/** Runs a pcbnew snippet with the system interpreter; its last stdout line starting with { is JSON. */
export function pcbnew(code: string, ...args: string[]): unknown {
  const out = execFileSync(PYTHON, ['-c', code, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const line = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .at(-1);
  return JSON.parse(line ?? 'null');
}

/**
 * A placed, unrouted board made from KiCad 9's ecc83 demo (ROUTING.md's method): every track, via and zone removed,
 * the footprints spread by `spread` about their centroid (the test's own placement), a rectangular Edge.Cuts outline
 * 3 mm around the courtyards. `ring` adds a closed copper ring (no net) on both layers around R1's pad 1: that pad
 * cannot be reached, so its net is unroutable.
 */
const MAKE = `
import json, sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
k = float(sys.argv[3])
for t in list(b.GetTracks()): b.RemoveNative(t)
for z in [b.GetArea(i) for i in range(b.GetAreaCount())]: b.RemoveNative(z)
for d in list(b.GetDrawings()):
    if d.GetLayer() == pcbnew.Edge_Cuts: b.RemoveNative(d)
fps = list(b.GetFootprints())
cx = sum(f.GetPosition().x for f in fps) / len(fps); cy = sum(f.GetPosition().y for f in fps) / len(fps)
for f in fps:
    p = f.GetPosition()
    f.SetPosition(pcbnew.VECTOR2I(int(cx + (p.x - cx) * k), int(cy + (p.y - cy) * k)))
xs0, ys0, xs1, ys1 = [], [], [], []
for f in fps:
    r = f.GetBoundingBox(False)
    xs0.append(r.GetX()); ys0.append(r.GetY()); xs1.append(r.GetRight()); ys1.append(r.GetBottom())
m = pcbnew.FromMM(3)
rect = pcbnew.PCB_SHAPE(b); rect.SetShape(pcbnew.SHAPE_T_RECT); rect.SetLayer(pcbnew.Edge_Cuts)
rect.SetStart(pcbnew.VECTOR2I(int(min(xs0) - m), int(min(ys0) - m)))
rect.SetEnd(pcbnew.VECTOR2I(int(max(xs1) + m), int(max(ys1) + m))); rect.SetWidth(pcbnew.FromMM(0.1))
b.Add(rect)
ring = None
if sys.argv[4] == "ring":
    pad = [p for p in b.FindFootprintByReference("R1").Pads() if p.GetNumber() == "1"][0]
    ring = pad.GetNetname()
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        c = pcbnew.PCB_SHAPE(b); c.SetShape(pcbnew.SHAPE_T_CIRCLE); c.SetLayer(layer)
        c.SetCenter(pad.GetPosition())
        c.SetEnd(pcbnew.VECTOR2I(pad.GetPosition().x + pad.GetSize(pcbnew.PADSTACK.ALL_LAYERS).x // 2 + pcbnew.FromMM(1.2), pad.GetPosition().y))
        c.SetWidth(pcbnew.FromMM(0.5)); b.Add(c)
pcbnew.SaveBoard(sys.argv[2], b)
b.BuildConnectivity()
print(json.dumps({"unconnected": b.GetConnectivity().GetUnconnectedCount(False), "footprints": len(fps), "ring_net": ring}))
`;

/**
 * Writes the test board `<dir>/<stem>.kicad_pcb` with its project (the demo's rules plus a Power class, 1.2 mm tracks,
 * for GND and Net-(P1-PM), the B+ supply from the POWER connector P1) and the demo's schematic as `<stem>.kicad_sch`.
 */
export function makeTestBoard(
  dir: string,
  stem: string,
  opts: { spread: number; ring?: boolean },
): { unconnected: number; footprints: number; ring_net: string | null } {
  fs.mkdirSync(dir, { recursive: true });
  const board = path.join(dir, `${stem}.kicad_pcb`);
  const made = pcbnew(
    MAKE,
    path.join(ECC83, 'ecc83-pp.kicad_pcb'),
    board,
    String(opts.spread),
    opts.ring ? 'ring' : 'none',
  ) as { unconnected: number; footprints: number; ring_net: string | null };
  const pro = JSON.parse(fs.readFileSync(path.join(dir, `${stem}.kicad_pro`), 'utf8')) as {
    net_settings: { classes: Record<string, unknown>[]; netclass_patterns: unknown[] };
  };
  const power = { ...pro.net_settings.classes[0], name: 'Power', track_width: 1.2, priority: 0 };
  pro.net_settings.classes.push(power);
  pro.net_settings.netclass_patterns = ['GND', 'Net-(P1-PM)'].map((pattern) => ({ netclass: 'Power', pattern }));
  fs.writeFileSync(path.join(dir, `${stem}.kicad_pro`), JSON.stringify(pro, null, 2));
  fs.copyFileSync(path.join(ECC83, 'ecc83-pp.kicad_sch'), path.join(dir, `${stem}.kicad_sch`));
  return made;
}

/** A tool context's signal for a long engine chain (generous: the machine is shared). */
export const longSignal = (): AbortSignal => AbortSignal.timeout(900_000);
