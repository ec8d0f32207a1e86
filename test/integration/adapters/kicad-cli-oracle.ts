import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { children, parseSexpr, type SList } from '../../../workers/eda/sexpr.ts';
import { demoProjects } from '../../support/kicad-demos.ts';

/**
 * KiCad's own command line as the oracle of the native reader (docs/eda.md): `kicad-cli` is run directly here, not
 * through the service's engine runner, with HOME in a fresh folder so that no user's library tables or settings change
 * its answers (it then writes KiCad's default tables there). Each answer is reduced to what the comparison needs.
 */
const run = promisify(execFile);
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kicad-cli-home-'));

export const hasKicadCli = (() => {
  try {
    return fs.existsSync('/usr/bin/kicad-cli');
  } catch {
    return false;
  }
})();

async function cli(args: string[], out: string): Promise<string> {
  await run('kicad-cli', args, { env: { ...process.env, HOME: home }, timeout: 300_000, maxBuffer: 64 << 20 });
  return fs.readFileSync(out, 'utf8');
}

/** A pin as both sides name it: `REF/PIN`. */
export type PinKey = string;

/** The groups of pins of a netlist (`sch export netlist --format kicadsexpr`), each sorted, sorted by first pin. */
export async function cliNetGroups(
  schematic: string,
  scratch: string,
): Promise<{ groups: PinKey[][]; names: Map<string, string> }> {
  const out = path.join(scratch, 'netlist.net');
  const text = await cli(['sch', 'export', 'netlist', '--format', 'kicadsexpr', '-o', out, schematic], out);
  const root = parseSexpr(text);
  const groups: PinKey[][] = [];
  const names = new Map<string, string>();
  for (const net of children(children(root, 'nets')[0] ?? ['nets'], 'net')) {
    const name = String((children(net, 'name')[0] as SList | undefined)?.[1] ?? '');
    const pins = children(net, 'node').map((n) => `${value(n, 'ref')}/${value(n, 'pin')}`);
    if (!pins.length) continue;
    pins.sort();
    names.set(pins[0]!, name);
    groups.push(pins);
  }
  return { groups: sortGroups(groups), names };
}

const value = (l: SList, head: string) => String((children(l, head)[0] as SList | undefined)?.[1] ?? '');

export const sortGroups = (g: PinKey[][]) =>
  g.map((p) => [...p].sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));

/** The BOM (`sch export bom`, one line per reference: no grouping) as `REF=VALUE`, sorted. */
export async function cliBom(schematic: string, scratch: string): Promise<string[]> {
  const out = path.join(scratch, 'bom.csv');
  const text = await cli(
    [
      'sch',
      'export',
      'bom',
      '--fields',
      'Reference,Value',
      '--labels',
      'Reference,Value',
      '--group-by',
      '',
      '--ref-range-delimiter',
      '',
      '--field-delimiter',
      '\t',
      '--string-delimiter',
      '',
      '-o',
      out,
      schematic,
    ],
    out,
  );
  return text
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split('\t'))
    .map(([ref, v]) => `${ref}=${v}`)
    .sort();
}

export interface CliErcViolation {
  type: string;
  severity: string;
  sheet: string;
  /** The first item's position in mm (kicad-cli 9.0's JSON writes schematic coordinates a hundredth of their mm). */
  x: number;
  y: number;
  description: string;
  items: string[];
  /** The project's erc_exclusions name this marker (kicad-cli keeps its severity and sets `excluded`). */
  excluded: boolean;
}

/** The ERC report (`sch erc --format json --severity-all`), with the project's own rule severities. */
export async function cliErc(schematic: string, scratch: string): Promise<CliErcViolation[]> {
  const out = path.join(scratch, 'erc.json');
  const text = await cli(['sch', 'erc', '--format', 'json', '--severity-all', '-o', out, schematic], out);
  const report = JSON.parse(text) as {
    sheets: {
      path: string;
      violations: {
        type: string;
        severity: string;
        description: string;
        excluded?: boolean;
        items: { description: string; pos: { x: number; y: number } }[];
      }[];
    }[];
  };
  return report.sheets.flatMap((s) =>
    s.violations.map((v) => ({
      type: v.type,
      severity: v.severity,
      sheet: s.path,
      x: Math.round(v.items[0]!.pos.x * 100 * 1000) / 1000,
      y: Math.round(v.items[0]!.pos.y * 100 * 1000) / 1000,
      description: v.description,
      items: v.items.map((i) => i.description),
      excluded: v.excluded === true,
    })),
  );
}

/**
 * A workspace holding the schematic files (and project files) of every demo project of `demos` under `prefix/`: the
 * same bytes both readers are given. Returns the root schematics, workspace-relative.
 */
export function copyDemoSchematics(demos: string, ws: string, prefix: string): string[] {
  const roots = demoProjects(demos);
  const copy = (rel: string) => {
    for (const e of fs.readdirSync(path.join(demos, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) copy(r);
      else if (/\.(kicad_sch|kicad_pro)$/.test(e.name)) {
        fs.mkdirSync(path.join(ws, prefix, rel), { recursive: true });
        fs.copyFileSync(path.join(demos, r), path.join(ws, prefix, r));
      }
    }
  };
  copy('');
  return roots.map((r) => `${prefix}/${r}`);
}
