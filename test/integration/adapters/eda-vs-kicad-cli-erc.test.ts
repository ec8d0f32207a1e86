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
 * project, through the registry: the violations of every check both run, by KiCad rule name, severity, sheet and
 * location (mm), equal; both apply the project's .kicad_pro (rule severities, pin map, exclusions). Left out and named:
 * - KiCad's library-environment checks (no library tables are configured here): lib_symbol_issues,
 *   lib_symbol_mismatch, footprint_link_issues, footprint_filter;
 * - KiCad checks the native ERC does not run (NOT_RUN);
 * - markers the project excludes (kicad-cli's `excluded`; run_erc leaves them out and counts them).
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
const PICKS_ANOTHER_PIN =
  'the same power nets are flagged (equal counts), but KiCad puts the marker on another power input pin of the net ' +
  'than ours (it takes the first pin of its own item order; ours prefers a visible pin)';
const ERC_DIFFERENCES: Record<
  string,
  { only_ours: Record<string, number>; only_theirs: Record<string, number>; why: string }
> = {
  'k9/multichannel/multichannel_mixer.kicad_sch': {
    only_ours: { 'power_pin_not_driven:error': 1 },
    only_theirs: { 'power_pin_not_driven:error': 1 },
    why: 'the same undriven power nets; on one KiCad marks a pin of the root sheet, ours (first by reference and number over the whole net) one on /CH4/',
  },
  'k9/royalblue54L_feather/RoyalBlue54L-Feather.kicad_sch': {
    only_ours: { 'label_dangling:error': 2 },
    only_theirs: { 'label_dangling:error': 2 },
    why: 'KiCad leaves the SWD_TRG.~{RESET} labels of the bus group unjoined (see the netlist table): the dangling labels it flags are other labels of that net than ours',
  },
  'k9/vme-wren/vme-wren.kicad_sch': {
    only_ours: {
      'no_connect_connected:warning': 26,
      'pin_not_driven:error': 2,
      'pin_to_pin:error': 55,
      'pin_to_pin:warning': 13,
      'power_pin_not_driven:error': 3,
    },
    only_theirs: {
      'multiple_net_names:warning': 4,
      'no_connect_connected:warning': 4,
      'pin_to_pin:error': 2,
      'pin_to_pin:warning': 7,
    },
    why: "the sub-range vector buses ours does not join as KiCad does (see the netlist table) change the nets the checks see: 96 connector pins apart from their drivers' nets",
  },
  'k6/electric/electric.kicad_sch': {
    only_ours: {},
    only_theirs: { 'pin_not_connected:error': 33 },
    why: "electric's 33 hierarchical labels sit on its root sheet, which no sheet pin reaches: both flag each label dangling (its net has one pin); KiCad 9 also flags each pin unconnected, ours takes a label on the pin as its connection",
  },
  'k6/video/video.kicad_sch': {
    only_ours: { 'multiple_net_names:warning': 1 },
    only_theirs: { 'multiple_net_names:warning': 1 },
    why: 'the same two conflicts on /buspci.sch/ (GND with VSS, +5V with VCC): KiCad marks +5V on #+0129, ours on another +5V symbol of the sheet',
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

const byType = (keys: string[]) => {
  const out: Record<string, number> = {};
  for (const k of keys) out[k.slice(0, k.indexOf('@'))] = (out[k.slice(0, k.indexOf('@'))] ?? 0) + 1;
  return out;
};
const counts: string[] = [];

type Erc = {
  violations: { rule: string; severity: string; sheet: string; position_mm: { x: number; y: number } }[];
  truncated: boolean;
  project_file: string | null;
};

describe.skipIf(!hasKicadCli || !roots.length)('eda.run_erc against kicad-cli sch erc', () => {
  it.each(roots)(
    '%s',
    async (root) => {
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-erc-'));
      try {
        const ours = await okData<Erc>(
          callTool(t.node.broker, 'eda.run_erc', { schematic_path: root, max_violations: 100_000 }),
        );
        expect(ours.truncated).toBe(false);
        expect(ours.project_file).toBe(root.replace(/\.kicad_sch$/, '.kicad_pro'));
        const mine = ours.violations.map(
          (v) => `${v.rule}:${v.severity}@${v.sheet}(${v.position_mm.x},${v.position_mm.y})`,
        );
        const all = await cliErc(path.join(ws, root), scratch);
        const left = all.filter((v) => !NOT_RUN.includes(v.type) && !ENVIRONMENT.includes(v.type));
        const theirs = left.filter((v) => !v.excluded).map((v) => `${v.type}:${v.severity}@${v.sheet}(${v.x},${v.y})`);
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
