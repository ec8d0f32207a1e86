import { copperStack, GERBER_LAYERS } from './gerber-files.ts';
import type { KicadJob } from './kicad-cli.ts';

/**
 * The fabrication set of `eda.export_gerber` as one KiCad job set (decision 0152): the Gerbers with their job file,
 * the drill files and the position file in one kicad-cli start, which loads the board once instead of three times.
 * Each job's settings are the ones the separate commands were given (`pcb export gerbers --no-protel-ext --layers
 * ...`, `pcb export drill --format excellon --excellon-units mm --excellon-oval-format route
 * --excellon-zeros-format decimal --excellon-separate-th --drill-origin absolute`, `pcb export pos --format csv
 * --units mm --side both`), with the defaults where a job's differ from the command's written out (Gerber precision
 * 6, no drawing sheet, positions from the board origin): the files are those commands' byte for byte but their dates.
 */

/**
 * A job set names layers by KiCad's canonical names, which for the silkscreen are still KiCad 6's `F.SilkS` and
 * `B.SilkS`; a name KiCad does not know is dropped without a word, so the tool checks every layer came out.
 */
const JOBSET_LAYER: Record<string, string> = { 'F.Silkscreen': 'F.SilkS', 'B.Silkscreen': 'B.SilkS' };

/** The Gerber, drill and position jobs of a board with `copper` layers whose staged name is `stem`. */
export function fabricationJobs(copper: readonly string[], stem: string): KicadJob[] {
  const layers = [...copperStack(copper), ...GERBER_LAYERS].map((l) => JOBSET_LAYER[l] ?? l);
  return [
    {
      type: 'pcb_export_gerbers',
      settings: {
        layers,
        use_board_plot_params: false,
        use_protel_file_extension: false,
        use_x2_format: true,
        include_netlist_attributes: true,
        precision: 6,
        plot_drawing_sheet: false,
      },
    },
    {
      type: 'pcb_export_drill',
      settings: {
        format: 'excellon',
        units: 'mm',
        'excellon.oval_drill_route': true,
        zero_format: 'decimal',
        'excellon.combine_pth_npth': false,
        drill_origin: 'abs',
        generate_map: false,
      },
    },
    {
      type: 'pcb_export_pos',
      // KiCad adds `-all-pos` to the name of a single file of both sides: `<stem>-all-pos.csv`.
      settings: {
        format: 'csv',
        units: 'mm',
        side: 'both',
        single_file: true,
        use_drill_place_file_origin: false,
        output_filename: `${stem}.csv`,
      },
    },
  ];
}

/** The position file the jobs above write into the output folder. */
export const positionFileName = (stem: string) => `${stem}-all-pos.csv`;
