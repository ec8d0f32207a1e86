import { z } from 'zod';
import type { DrcReport, DrcViolation } from './drc-report.ts';

/**
 * Reads the JSON report of `kicad-cli pcb drc --format json` (KiCad 9, schema drc.v1.json, coordinates in mm) into
 * the tool's report shape (drc-report.ts, the same the text report of KiCad's pcbnew gives auto_route): `violations`
 * stay violations, `unconnected_items` the unconnected list, `schematic_parity` the footprint errors (KiCad 6's report
 * named the same checks "Footprint errors"). KiCad's JSON names no rule (its text report does, "Rule: netclass
 * 'Default'" or "Local override"): `rule` is the violation's type, the check that fired, never empty. Library-environment
 * checks (the footprint libraries the call's private KiCad settings do not configure) are set aside and counted by
 * type (decision 0131). A report that does not read this way is an error, never a guess.
 */
const Item = z.object({
  description: z.string(),
  pos: z.object({ x: z.number(), y: z.number() }),
  uuid: z.string().optional(),
});
const Entry = z.object({
  type: z.string(),
  severity: z.string(),
  description: z.string(),
  items: z.array(Item),
  excluded: z.boolean().optional(),
});
export const KicadDrcJsonSchema = z.object({
  kicad_version: z.string(),
  coordinate_units: z.literal('mm'),
  violations: z.array(Entry),
  unconnected_items: z.array(Entry),
  schematic_parity: z.array(Entry).default([]),
});

/**
 * Library checks: whether each footprint's library is configured and its footprint equals the library's copy. They
 * judge the machine's KiCad settings, not the board: the call runs with KiCad's defaults and no library table.
 */
export const ENVIRONMENT_TYPES: ReadonlySet<string> = new Set(['lib_footprint_issues', 'lib_footprint_mismatch']);

export interface KicadDrc extends DrcReport {
  kicad_version: string;
  /** Entries set aside as environment, counted by type. */
  environment: Record<string, number>;
}

export class DrcJsonError extends Error {
  override name = 'DrcJsonError';
}

const entry = (e: z.infer<typeof Entry>): DrcViolation => ({
  type: e.type,
  severity: e.severity,
  description: e.description,
  rule: e.type,
  items: e.items.map((i) => ({ description: i.description, position_mm: { x: i.pos.x, y: i.pos.y } })),
});

export function parseDrcJson(text: string): KicadDrc {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new DrcJsonError(`not JSON: ${(err as Error).message}`);
  }
  const parsed = KicadDrcJsonSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new DrcJsonError(`${first.path.join('.') || 'the report'}: ${first.message}`);
  }
  const r = parsed.data;
  const environment: Record<string, number> = {};
  const kept = r.violations.filter((v) => {
    if (!ENVIRONMENT_TYPES.has(v.type)) return true;
    environment[v.type] = (environment[v.type] ?? 0) + 1;
    return false;
  });
  return {
    kicad_version: r.kicad_version,
    violations: kept.filter((v) => !v.excluded).map(entry),
    unconnected: r.unconnected_items.filter((v) => !v.excluded).map(entry),
    footprint_errors: r.schematic_parity.filter((v) => !v.excluded).map(entry),
    environment,
  };
}

/**
 * The parity entries that say the board is not the schematic's (decision 0132): a footprint missing or extra (or
 * twice), a pad on another net. The others (footprint_symbol_mismatch: the footprint's library name differs from the
 * symbol's footprint field) are counted but do not make the board another design.
 */
export const PARITY_DIFFERENCES: ReadonlySet<string> = new Set([
  'missing_footprint',
  'extra_footprint',
  'duplicate_footprints',
  'net_conflict',
]);

/** The parity entries a person reads first: footprints missing or extra, nets that differ, others counted. */
export interface ParitySummary {
  matches: boolean;
  missing_footprints: string[];
  extra_footprints: string[];
  net_conflicts: string[];
  other: Record<string, number>;
}

const ref = (v: DrcViolation) =>
  v.items.map((i) => /^Footprint (\S+)/.exec(i.description)?.[1] ?? i.description).join(', ');

export function summarizeParity(items: DrcViolation[]): ParitySummary {
  const s: ParitySummary = {
    matches: !items.some((v) => PARITY_DIFFERENCES.has(v.type)),
    missing_footprints: [],
    extra_footprints: [],
    net_conflicts: [],
    other: {},
  };
  for (const v of items) {
    if (v.type === 'missing_footprint') s.missing_footprints.push(v.description.replace(/^Missing footprint /, ''));
    else if (v.type === 'extra_footprint') s.extra_footprints.push(ref(v));
    else if (v.type === 'net_conflict') s.net_conflicts.push(`${v.items[0]?.description ?? ''}: ${v.description}`);
    else s.other[v.type] = (s.other[v.type] ?? 0) + 1;
  }
  return s;
}
