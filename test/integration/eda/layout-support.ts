import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSchematic } from '../../../actors/adapters/eda/generate-schematic.ts';
import { schematicArgs } from '../../../actors/runs/handlers/hardware/electronics-circuit.ts';
import { selectParts } from '../../../actors/runs/handlers/hardware/electronics-select.ts';

export const PYTHON = '/usr/bin/python3';
export const FOOTPRINTS = '/usr/share/kicad/footprints';

/** KiCad 9 (kicad-cli and pcbnew) and its footprint libraries, or the layout tests are skipped. */
export const hasLayoutEngines = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import pcbnew'], { stdio: 'ignore' });
    const v = execFileSync('kicad-cli', ['version'], { encoding: 'utf8' });
    return Number(v.split('.')[0]) >= 9 && fs.existsSync(path.join(FOOTPRINTS, 'Package_QFP.pretty'));
  } catch {
    return false;
  }
})();

/** hardware_v1's reference request, whose electronics the parts table serves. */
export const REFERENCE_GOAL =
  'a wall-mounted environmental sensor: a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB';

/**
 * Writes the schematic the electronics phase generates for `goal` at `<root>/<rel>`; `footprint` may replace a
 * component's footprint (hostile cases).
 */
export function writeReferenceSchematic(root: string, rel: string, footprint?: { ref: string; id: string }): void {
  const sel = selectParts(REFERENCE_GOAL);
  if (!sel.ok) throw new Error(`parts table: ${sel.unserved.join('; ')}`);
  const args = schematicArgs(sel.placed, rel, 'layout test');
  if (footprint) for (const c of args.components) if (c.reference === footprint.ref) c.footprint = footprint.id;
  const g = generateSchematic(args);
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), g.text);
}

export interface DrcJson {
  violations: { type: string; severity: string; description: string }[];
  unconnected_items: unknown[];
  schematic_parity: { type: string; description: string }[];
}

/** KiCad 9's own DRC with schematic parity on a board (its .kicad_sch beside it), with a private HOME. */
export function kicadDrc(board: string): DrcJson {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-drc-'));
  try {
    const out = path.join(home, 'drc.json');
    execFileSync(
      'kicad-cli',
      ['pcb', 'drc', '--format', 'json', '--schematic-parity', '--severity-all', '-o', out, board],
      { stdio: 'ignore', env: { ...process.env, HOME: home, KICAD_CONFIG_HOME: path.join(home, 'kicad') } },
    );
    return JSON.parse(fs.readFileSync(out, 'utf8')) as DrcJson;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

const FACTS = `
import json, sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
e = b.GetBoardEdgesBoundingBox()
mm = lambda v: v / 1e6
out = {"edge": [mm(e.GetLeft()), mm(e.GetTop()), mm(e.GetRight()), mm(e.GetBottom())], "footprints": []}
for f in b.GetFootprints():
    f.BuildCourtyardCaches()
    c = f.GetCourtyard(pcbnew.F_CrtYd).BBox()
    out["footprints"].append({"ref": f.GetReference(), "fpid": f.GetFPID().GetUniStringLibId(),
        "courtyard": [mm(c.GetLeft()), mm(c.GetTop()), mm(c.GetRight()), mm(c.GetBottom())],
        "pads": [{"number": p.GetNumber(), "net": p.GetNetname(), "x": mm(p.GetPosition().x), "y": mm(p.GetPosition().y)}
                 for p in f.Pads()]})
out["copper_layers"] = b.GetCopperLayerCount()
print(json.dumps(out))
`;

export interface BoardFacts {
  edge: [number, number, number, number];
  copper_layers: number;
  footprints: {
    ref: string;
    fpid: string;
    courtyard: [number, number, number, number];
    pads: { number: string; net: string; x: number; y: number }[];
  }[];
}

/** What KiCad's own pcbnew reads from a board: the edge box, each footprint's courtyard box and pads. */
export function boardFacts(board: string): BoardFacts {
  const out = execFileSync(PYTHON, ['-c', FACTS, board], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(
    out
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .at(-1)!,
  ) as BoardFacts;
}
