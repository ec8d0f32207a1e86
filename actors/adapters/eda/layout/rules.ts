import { isPowerNet } from './roles.ts';

/**
 * The design rules of a generated board (docs/layout.md "Rules"): a two-layer board a common PCB fab makes at its
 * standard class (0.2 mm clearance and track), tracks of the Default class 0.25 mm, of the Power class 0.5 mm; KiCad
 * 9 keeps rules and net classes in the project file beside the board (`.kicad_pro`), and the Power width is also a
 * custom DRC rule (`.kicad_dru`), so KiCad's DRC holds a router to it.
 */
export const BOARD_RULES = {
  clearance_mm: 0.2,
  track_mm: 0.25,
  power_track_mm: 0.5,
  via_mm: 0.6,
  via_drill_mm: 0.3,
  copper_edge_clearance_mm: 0.3,
  /** Courtyards keep this far from the edge (connectors sit on it) and apart (a track fits between parts). */
  courtyard_edge_mm: 0.5,
  courtyard_gap_mm: 0.5,
  /** The sensor's centre keeps this far from the regulator's (its heat), or the most the board allows. */
  heat_distance_mm: 20,
} as const;

const netClass = (name: string, track: number, priority: number) => ({
  name,
  clearance: BOARD_RULES.clearance_mm,
  track_width: track,
  via_diameter: BOARD_RULES.via_mm,
  via_drill: BOARD_RULES.via_drill_mm,
  microvia_diameter: 0.3,
  microvia_drill: 0.1,
  diff_pair_gap: 0.25,
  diff_pair_via_gap: 0.25,
  diff_pair_width: 0.2,
  bus_width: 12,
  wire_width: 6,
  line_style: 0,
  priority,
  pcb_color: 'rgba(0, 0, 0, 0.000)',
  schematic_color: 'rgba(0, 0, 0, 0.000)',
});

/** The Power net class's members: the nets named as supplies or ground (roles.ts isPowerNet). */
export const powerNets = (nets: string[]) => nets.filter(isPowerNet);

/** The `.kicad_pro` of a generated board `<stem>.kicad_pcb`: its design rules and net classes (KiCad 9, meta 3). */
export function projectFile(stem: string, nets: string[]): string {
  const pro = {
    board: {
      design_settings: {
        defaults: { board_outline_line_width: 0.1 },
        rules: {
          min_clearance: BOARD_RULES.clearance_mm,
          min_track_width: 0.2,
          min_via_diameter: 0.5,
          min_through_hole_diameter: 0.3,
          min_via_annular_width: 0.1,
          min_copper_edge_clearance: BOARD_RULES.copper_edge_clearance_mm,
          min_hole_to_hole: 0.25,
          min_hole_clearance: 0.25,
          min_silk_clearance: 0,
          allow_blind_buried_vias: false,
          allow_microvias: false,
        },
        track_widths: [0, BOARD_RULES.track_mm, BOARD_RULES.power_track_mm],
        via_dimensions: [{ diameter: 0, drill: 0 }],
      },
    },
    meta: { filename: `${stem}.kicad_pro`, version: 3 },
    net_settings: {
      classes: [
        netClass('Default', BOARD_RULES.track_mm, 2147483647),
        netClass('Power', BOARD_RULES.power_track_mm, 0),
      ],
      meta: { version: 4 },
      net_colors: null,
      netclass_assignments: null,
      netclass_patterns: powerNets(nets).map((n) => ({ netclass: 'Power', pattern: n })),
    },
  };
  return `${JSON.stringify(pro, null, 2)}\n`;
}

/** The `.kicad_dru`: the Power class's width as a DRC rule (a narrower track on a power net is a violation). */
export function rulesFile(): string {
  return [
    '(version 1)',
    '(rule "Power net class width"',
    '  (condition "A.NetClass == \'Power\'")',
    `  (constraint track_width (min ${BOARD_RULES.power_track_mm}mm)))`,
    '',
  ].join('\n');
}
