import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kicadDemos } from '../../support/kicad-demos.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';
import { cliErc, copyDemoSchematics, hasKicadCli } from './kicad-cli-oracle.ts';

/**
 * `eda.run_erc` judged against `kicad-cli sch erc --format json --severity-all` on every KiCad 9 and KiCad 6 demo
 * project, through the registry: the violations of every check both run, by type, sheet and location (mm), equal.
 * Left out and named:
 * - KiCad's library-environment checks (no library tables are configured here): lib_symbol_issues,
 *   lib_symbol_mismatch, footprint_link_issues, footprint_filter;
 * - KiCad checks the native ERC does not run (NOT_RUN);
 * - the checks a project's .kicad_pro sets to `ignore` (run_erc applies KiCad's default severities, kicad-cli the
 *   project's: royalblue54L_feather ignores pin_to_pin, video and kit-dev-coldfire multiple_net_names);
 * - markers the project excludes (severity `exclusion`).
 * Where the rest differs, ERC_DIFFERENCES says why, per project.
 */
const ENVIRONMENT = ['lib_symbol_issues', 'lib_symbol_mismatch', 'footprint_link_issues', 'footprint_filter'];
const NOT_RUN = [
  'unconnected_wire_endpoint',
  'endpoint_off_grid',
  'same_local_global_label',
  'similar_labels',
  'similar_power',
  'similar_label_and_power',
  'net_not_bus_member',
  'bus_to_net_conflict',
  'bus_entry_needed',
  'label_multiple_wires',
  'simulation_model_issue',
  'four_way_junction',
  'missing_unit',
  'missing_input_pin',
  'missing_bidi_pin',
  'missing_power_pin',
  'ground_pin_not_ground',
  'stacked_pin_name',
  'unresolved_variable',
  'undefined_netclass',
  'generic-warning',
  'generic-error',
];
/** Our type names where KiCad's differ. */
const KICAD_NAME: Record<string, string> = {
  global_label_single: 'single_global_label',
  driver_conflict: 'multiple_net_names',
};

const PICKS_ANOTHER_PIN =
  'the same power nets are flagged (equal counts), but KiCad puts the marker on another power input pin of the net ' +
  'than ours (it takes the first pin of its own item order; ours prefers a visible pin)';
const ERC_DIFFERENCES: Record<
  string,
  { only_ours: Record<string, number>; only_theirs: Record<string, number>; why: string }
> = {
  'k9/multichannel/multichannel_mixer.kicad_sch': {
    only_ours: { power_pin_not_driven: 2 },
    only_theirs: { power_pin_not_driven: 2 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/royalblue54L_feather/RoyalBlue54L-Feather.kicad_sch': {
    only_ours: { label_dangling: 2, power_pin_not_driven: 2 },
    only_theirs: { label_dangling: 2, power_pin_not_driven: 2 },
    why: `both leave the SWD_TRG.~{RESET} labels apart from the bus member SWD_TRG.RESET (decision 0161) and flag the same labels dangling, but kicad-cli reports two of them (/Debugger/'s SWD_TRG.~{RESET} at 85.09,123.19 and /Connectors/' ~{RESET} port at 72.39,88.9) on the root sheet, ours on their own sheets; ${PICKS_ANOTHER_PIN}`,
  },
  'k9/simulation/analog-multiplier/a-multi.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { power_pin_not_driven: 1 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/simulation/class-d/Class-D.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { label_dangling: 1, power_pin_not_driven: 1 },
    why: `KiCad flags one label dangling that ours finds on a wire with a pin (cause not found yet); ${PICKS_ANOTHER_PIN}`,
  },
  'k9/simulation/gain_control/mult_vca810.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { label_dangling: 1, power_pin_not_driven: 1 },
    why: `KiCad flags one label dangling that ours finds attached (cause not found yet); ${PICKS_ANOTHER_PIN}`,
  },
  'k9/simulation/generic_models/generic_opamp_bip.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { power_pin_not_driven: 1 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/simulation/ibis/ibis.kicad_sch': {
    only_ours: { power_pin_not_driven: 2 },
    only_theirs: { power_pin_not_driven: 2 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/simulation/power_supplies/LM317_power_supply/power_supply.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { power_pin_not_driven: 1 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/simulation/power_supplies/buck_conv/buck_conv.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { power_pin_not_driven: 1 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/simulation/power_supplies/hv_converter/hv_converter.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { power_pin_not_driven: 1 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/simulation/power_supplies/royer/royer1.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { power_pin_not_driven: 1 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/simulation/q17/Q17ng.kicad_sch': {
    only_ours: { power_pin_not_driven: 2 },
    only_theirs: { power_pin_not_driven: 2 },
    why: PICKS_ANOTHER_PIN,
  },
  'k9/simulation/up-down-counter/up-down-c.kicad_sch': {
    only_ours: { power_pin_not_driven: 1 },
    only_theirs: { label_dangling: 3, power_pin_not_driven: 1 },
    why: `KiCad flags 3 labels dangling that ours finds attached (cause not found yet); ${PICKS_ANOTHER_PIN}`,
  },
  'k9/sonde xilinx/sonde xilinx.kicad_sch': {
    only_ours: { duplicate_reference: 6 },
    only_theirs: {},
    why: 'ours flags 6 duplicate references among the units of U1/U2 in the KiCad 9 file that KiCad accepts (the KiCad 6 file of the same project is clean on both sides; cause not found yet)',
  },
  'k9/tiny_tapeout/tinytapeout-demo.kicad_sch': {
    only_ours: { pin_to_pin: 2 },
    only_theirs: { pin_to_pin: 2, multiple_net_names: 1 },
    why: 'the same 2 pin conflicts, marked on the other pin of each pair; KiCad also names one net twice where ours sees one driver (cause not found yet)',
  },
  'k9/vme-wren/vme-wren.kicad_sch': {
    only_ours: {
      power_pin_not_driven: 5,
      pin_to_pin: 66,
      pin_not_driven: 2,
      no_connect_connected: 26,
    },
    only_theirs: { power_pin_not_driven: 2, no_connect_connected: 4, pin_to_pin: 7, multiple_net_names: 4 },
    why: "cause not found yet: the nets are KiCad's since decision 0160 (netlist pin groups equal kicad-cli's), so these are differences of the checks themselves, not of connectivity",
  },
  'k6/electric/electric.kicad_sch': {
    only_ours: {},
    only_theirs: { label_dangling: 33, pin_not_connected: 33 },
    why: "electric's 33 hierarchical labels sit on its root sheet, which no sheet pin reaches: KiCad 9 flags each label dangling and its pin unconnected, ours (as KiCad 6 did) takes a root-sheet hierarchical label as the design's port",
  },
  'k6/video/video.kicad_sch': {
    only_ours: { multiple_net_names: 1 },
    only_theirs: { multiple_net_names: 1 },
    why: 'the same two nets with two names on /buspci.sch/: KiCad 9 puts one of the two markers on the other label of the pair',
  },
};

const k9 = kicadDemos(9);
const k6 = kicadDemos(6);
if (process.env.CI === 'true' && !hasKicadCli) throw new Error('CI=true and kicad-cli (KiCad 9) is not installed');
const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'erc-vs-cli-'));
const roots = [...(k9 ? copyDemoSchematics(k9, ws, 'k9') : []), ...(k6 ? copyDemoSchematics(k6, ws, 'k6') : [])];

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({
    roles: 'tools,adapter:eda',
    env: { SERVICE_WORKSPACE: ws, SERVICE_REQUEST_TIMEOUT_MS: '120000' },
  });
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(ws, { recursive: true, force: true });
});

/** The checks a project file sets to `ignore`. */
function ignored(root: string): Set<string> {
  const pro = JSON.parse(fs.readFileSync(path.join(ws, root.replace(/\.kicad_sch$/, '.kicad_pro')), 'utf8'));
  const sev: Record<string, string> = pro?.erc?.rule_severities ?? {};
  return new Set(Object.keys(sev).filter((k) => sev[k] === 'ignore'));
}

const byType = (keys: string[]) => {
  const out: Record<string, number> = {};
  for (const k of keys) out[k.slice(0, k.indexOf('@'))] = (out[k.slice(0, k.indexOf('@'))] ?? 0) + 1;
  return out;
};
const counts: string[] = [];

type Erc = { violations: { type: string; sheet: string; position_mm: { x: number; y: number } }[]; truncated: boolean };

describe.skipIf(!hasKicadCli || !roots.length)('eda.run_erc against kicad-cli sch erc', () => {
  it.each(roots)(
    '%s',
    async (root) => {
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-erc-'));
      try {
        const skip = ignored(root);
        const ours = await okData<Erc>(
          callTool(t.node.broker, 'eda.run_erc', { schematic_path: root, max_violations: 100_000 }),
        );
        expect(ours.truncated).toBe(false);
        const mine = ours.violations
          .map((v) => ({ ...v, type: KICAD_NAME[v.type] ?? v.type }))
          .filter((v) => !skip.has(v.type))
          .map((v) => `${v.type}@${v.sheet}(${v.position_mm.x},${v.position_mm.y})`);
        const all = await cliErc(path.join(ws, root), scratch);
        const left = all.filter((v) => !NOT_RUN.includes(v.type) && !ENVIRONMENT.includes(v.type));
        const theirs = left
          .filter((v) => v.severity !== 'exclusion' && !skip.has(v.type))
          .map((v) => `${v.type}@${v.sheet}(${v.x},${v.y})`);
        const rest = [...theirs];
        const onlyOurs: string[] = [];
        for (const k of mine) {
          const i = rest.indexOf(k);
          if (i >= 0) rest.splice(i, 1);
          else onlyOurs.push(k);
        }
        const expected = ERC_DIFFERENCES[root] ?? { only_ours: {}, only_theirs: {} };
        expect(
          { only_ours: byType(onlyOurs), only_theirs: byType(rest) },
          [...onlyOurs, ...rest].slice(0, 4).join(' | '),
        ).toEqual({
          only_ours: expected.only_ours,
          only_theirs: expected.only_theirs,
        });
        const environment = all.filter((v) => ENVIRONMENT.includes(v.type)).length;
        const notRun = all.filter((v) => NOT_RUN.includes(v.type)).length;
        counts.push(
          `${root}: ERC ${mine.length}/${theirs.length} (left out: ${environment} environment, ${notRun} not run)`,
        );
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
    300_000,
  );

  it('the table names only projects that exist', () => {
    for (const p of Object.keys(ERC_DIFFERENCES))
      if ((p.startsWith('k9/') && k9) || (p.startsWith('k6/') && k6)) expect(roots).toContain(p);
  });

  afterAll(() => {
    process.stdout.write(`\nrun_erc vs kicad-cli (ours/theirs):\n${counts.join('\n')}\n`);
  });
});
