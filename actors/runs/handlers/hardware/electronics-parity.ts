/**
 * The layout-against-schematic check of the electronics phase (issue 30 point 4, decision 0133): the board the project
 * holds is checked by eda.run_drc against the schematic the run generated (KiCad's schematic parity). A board that is
 * not that schematic's (a footprint missing or extra, a pad on another net) is a blocking finding naming the
 * differences: a board of another design is never delivered as this run's layout.
 */
export interface Parity {
  schematic_path: string;
  matches: boolean;
  missing_footprints: string[];
  extra_footprints: string[];
  net_conflicts: string[];
  other: Record<string, number>;
}

const SHOWN = 5;
const some = (list: string[]) =>
  list.length > SHOWN ? `${list.slice(0, SHOWN).join(', ')} and ${list.length - SHOWN} more` : list.join(', ');

/** One sentence naming the differences (counts and the first few of each), or null when the board matches. */
export function parityFinding(boardPath: string, p: Parity | undefined): string | null {
  if (!p) return `layout ${boardPath}: eda.run_drc returned no schematic parity`;
  if (p.matches) return null;
  const parts = [
    p.missing_footprints.length &&
      `${p.missing_footprints.length} footprint(s) missing (${some(p.missing_footprints)})`,
    p.extra_footprints.length &&
      `${p.extra_footprints.length} footprint(s) not in the schematic (${some(p.extra_footprints)})`,
    p.net_conflicts.length && `${p.net_conflicts.length} pad net(s) differ (${some(p.net_conflicts)})`,
  ].filter(Boolean);
  return `layout ${boardPath} does not match the schematic ${p.schematic_path}: ${parts.join('; ')}`;
}

/** What the pcb_layout records of the check: counts and the first differences. */
export function parityProperties(p: Parity | undefined) {
  if (!p) return { checked: false };
  return {
    checked: true,
    schematic_path: p.schematic_path,
    matches: p.matches,
    missing_footprints: p.missing_footprints.slice(0, 50),
    missing_count: p.missing_footprints.length,
    extra_footprints: p.extra_footprints.slice(0, 50),
    extra_count: p.extra_footprints.length,
    net_conflict_count: p.net_conflicts.length,
  };
}
