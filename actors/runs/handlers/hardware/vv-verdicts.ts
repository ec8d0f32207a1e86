import type { Sourced } from './reference-data.ts';

/** One key requirement's verdict at V&V: never `pass` without a value that was measured or computed here. */
export interface Verdict {
  requirement: string;
  method: 'analysis' | 'inspection' | 'test';
  value: number | null;
  limit: number;
  unit: string;
  status: 'pass' | 'fail' | 'not_verified';
  evidence: string;
}

/** First-order thermal values of the regulator (the only part dissipating more than a few milliwatts). */
export const LDO_THERMAL = {
  thetaJa: {
    value: 250,
    unit: 'C/W',
    source:
      'SOT-23-5 junction-to-ambient thermal resistance on a minimal pad, typical of the package (AP2112 datasheet table; to be confirmed for the layout)',
  },
  tjMax: { value: 125, unit: 'C', source: 'AP2112 maximum operating junction temperature (datasheet)' },
  ambientMax: {
    value: 40,
    unit: 'C',
    source: 'assumption: indoor wall mounting, 40 C worst-case ambient (the request states none)',
  },
} satisfies Record<string, Sourced>;

/** The regulator junction temperature by hand: ambient + dissipation x theta-JA (labelled, never an FEA result). */
export function ldoJunction(dissipationMw: number) {
  const rise = (dissipationMw / 1000) * LDO_THERMAL.thetaJa.value;
  const tj = Math.round((LDO_THERMAL.ambientMax.value + rise) * 10) / 10;
  return { tj_c: tj, rise_c: Math.round(rise * 10) / 10, pass: tj <= LDO_THERMAL.tjMax.value };
}

const check = (value: number | null, limit: number, op: '<=' | '==') =>
  value === null
    ? ('not_verified' as const)
    : (op === '<=' ? value <= limit : Math.abs(value - limit) < 1e-9)
      ? ('pass' as const)
      : ('fail' as const);

/** The inputs the V&V phase gathered; null where no evidence exists. */
export interface VvEvidence {
  stress: { value: number; limit: number; node_id: string } | null;
  cost: { value: number | null; limit: number; currency: string; node_id: string | null } | null;
  usb: { value: number | null; limit: number } | null;
  logic: { value: number | null; limit: number } | null;
  erc: { errors: number; path: string } | null;
  drc: { passed: boolean; errors: number; unconnected: number; node_id: string } | null;
  thermal: { tj_c: number; dissipation_mw: number } | null;
  firmware: {
    passed: boolean | null;
    node_id: string;
    target: TargetEvidence | null;
  } | null;
}

/** The firmware's target build: its use of the part (null sizes: not built, `reason` says why). */
export interface TargetEvidence {
  mcu: string;
  flash: number | null;
  flash_max: number;
  ram: number | null;
  ram_max: number;
  reason: string | null;
}

/** The verdict table (pure): one row per key requirement; missing evidence is `not_verified`, never a pass. */
export function verdicts(e: VvEvidence): Verdict[] {
  const rows: Verdict[] = [];
  if (e.stress)
    rows.push({
      requirement: 'REQ-STRESS bracket peak von Mises',
      method: 'analysis',
      value: e.stress.value,
      limit: e.stress.limit,
      unit: 'MPa',
      status: check(e.stress.value, e.stress.limit, '<='),
      evidence: `simulation_result ${e.stress.node_id} (CalculiX)`,
    });
  if (e.cost)
    rows.push({
      requirement: 'REQ-COST parts cost',
      method: 'inspection',
      value: e.cost.value,
      limit: e.cost.limit,
      unit: e.cost.currency,
      status: check(e.cost.value, e.cost.limit, '<='),
      evidence: e.cost.node_id ? `bom ${e.cost.node_id}` : 'no BOM in this run',
    });
  if (e.usb)
    rows.push({
      requirement: 'REQ-USB-CURRENT worst-case USB draw',
      method: 'analysis',
      value: e.usb.value,
      limit: e.usb.limit,
      unit: 'mA',
      status: check(e.usb.value, e.usb.limit, '<='),
      evidence:
        e.usb.value === null ? 'no schematic in this run' : 'power budget of the chosen parts (datasheet maxima)',
    });
  if (e.logic)
    rows.push({
      requirement: 'REQ-LOGIC-V logic rail',
      method: 'inspection',
      value: e.logic.value,
      limit: e.logic.limit,
      unit: 'V',
      status: check(e.logic.value, e.logic.limit, '=='),
      evidence: 'regulator output of the schematic',
    });
  rows.push({
    requirement: 'ERC errors',
    method: 'analysis',
    value: e.erc ? e.erc.errors : null,
    limit: 0,
    unit: 'errors',
    status: check(e.erc ? e.erc.errors : null, 0, '<='),
    evidence: e.erc ? `eda.run_erc on ${e.erc.path}` : 'no schematic in this run',
  });
  rows.push({
    requirement: 'DRC errors and unconnected items',
    method: 'analysis',
    value: e.drc ? e.drc.errors + e.drc.unconnected : null,
    limit: 0,
    unit: 'violations',
    status: e.drc ? (e.drc.passed ? 'pass' : 'fail') : 'not_verified',
    evidence: e.drc ? `pcb_layout ${e.drc.node_id} (pcbnew DRC)` : 'no PCB layout in the project: DRC not run',
  });
  rows.push({
    requirement: 'Regulator junction temperature',
    method: 'analysis',
    value: e.thermal ? e.thermal.tj_c : null,
    limit: LDO_THERMAL.tjMax.value,
    unit: 'C',
    status: check(e.thermal ? e.thermal.tj_c : null, LDO_THERMAL.tjMax.value, '<='),
    evidence: e.thermal
      ? `hand calculation: ${LDO_THERMAL.ambientMax.value} C + ${e.thermal.dissipation_mw} mW x ${LDO_THERMAL.thetaJa.value} C/W`
      : 'no regulator dissipation known',
  });
  rows.push({
    requirement: 'Firmware builds',
    method: 'test',
    value: e.firmware?.passed == null ? null : e.firmware.passed ? 0 : 1,
    limit: 0,
    unit: 'build errors',
    status: e.firmware?.passed == null ? 'not_verified' : e.firmware.passed ? 'pass' : 'fail',
    evidence: e.firmware ? `firmware_source ${e.firmware.node_id}` : 'no firmware build in this run',
  });
  const t = e.firmware?.target;
  const why = !e.firmware
    ? 'no firmware build in this run'
    : !t
      ? 'no target build for this microcontroller'
      : (t.reason ?? `target build of firmware_source ${e.firmware.node_id} (${t.mcu})`);
  for (const [what, value, limit] of [
    ['flash', t?.flash ?? null, t?.flash_max],
    ['static RAM', t?.ram ?? null, t?.ram_max],
  ] as const)
    rows.push({
      requirement: `Firmware ${what} fits the microcontroller`,
      method: 'test',
      value,
      limit: limit ?? 0,
      unit: `bytes ${what}`,
      status: limit === undefined ? 'not_verified' : check(value, limit, '<='),
      evidence: why,
    });
  return rows;
}

/** The table as markdown. */
export function verdictTable(rows: Verdict[]): string {
  return [
    '| requirement | method | value | limit | status | evidence |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.requirement} | ${r.method} | ${r.value ?? '-'} ${r.value === null ? '' : r.unit} | ${r.limit} ${r.unit} | ${r.status.toUpperCase()} | ${r.evidence} |`,
    ),
  ].join('\n');
}
