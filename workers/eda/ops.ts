import { bomLines, type BomLine } from './bom.ts';
import { connectivity, type Connectivity } from './connectivity.ts';
import type { EdaOp } from './eda.schemas.ts';
import { runErc } from './erc.ts';
import type { ErcType, ErcViolation } from './erc.types.ts';
import { jsonNetlist, kicadNetlist } from './netlist.ts';
import { pinMapping, type PinMapEntry } from './pinmap.ts';
import type { Schematic } from './schematic.types.ts';

/** The ERC report `eda.run_erc` answers: violations of the severities asked for, at most max_violations listed. */
export interface ErcResult {
  passed: boolean;
  error_count: number;
  warning_count: number;
  by_type: Partial<Record<ErcType, number>>;
  violations: ErcViolation[];
  /** Violations the project's exclusions left out. */
  excluded_count: number;
  truncated: boolean;
  sheets: string[];
}

/** What each op answers (computed in the worker; only this crosses back to the adapter's thread). */
export interface EdaOpResults {
  design: { sch: Schematic; conn: Connectivity };
  erc: ErcResult;
  netlist: { netlist: ReturnType<typeof jsonNetlist>; text: string; sheets: string[] };
  bom: { lines: BomLine[] };
  pinmap: { parts: PinMapEntry[] };
}

/** A parsed design; its connectivity is computed on first need (the BOM needs none). */
export interface ParsedDesign {
  sch: Schematic;
  conn?: Connectivity;
}

const connOf = (d: ParsedDesign) => (d.conn ??= connectivity(d.sch));

/** Runs one op on a parsed design (pure: no I/O). */
export function runOp(d: ParsedDesign, op: EdaOp): EdaOpResults[EdaOp['kind']] {
  switch (op.kind) {
    case 'design':
      return { sch: d.sch, conn: connOf(d) };
    case 'erc': {
      const report = runErc(d.sch, connOf(d), op.settings);
      const kept =
        op.severity === 'error' ? report.violations.filter((v) => v.severity === 'error') : report.violations;
      const by_type: ErcResult['by_type'] = {};
      for (const v of kept) by_type[v.type] = (by_type[v.type] ?? 0) + 1;
      return {
        passed: report.passed,
        error_count: report.error_count,
        warning_count: report.warning_count,
        by_type,
        violations: kept.slice(0, op.max_violations),
        excluded_count: report.excluded_count,
        truncated: kept.length > op.max_violations,
        sheets: report.sheets,
      };
    }
    case 'netlist': {
      const netlist = jsonNetlist(d.sch, connOf(d));
      const text =
        op.format === 'kicad'
          ? kicadNetlist(d.sch, connOf(d), { source: op.source, date: op.date, tool: op.tool })
          : `${JSON.stringify(netlist, null, 1)}\n`;
      return { netlist, text, sheets: d.sch.sheets.map((s) => s.instance.names) };
    }
    case 'bom':
      return { lines: bomLines(d.sch) };
    case 'pinmap':
      return { parts: pinMapping(d.sch, connOf(d), op.only ? new Set(op.only) : undefined) };
  }
}
