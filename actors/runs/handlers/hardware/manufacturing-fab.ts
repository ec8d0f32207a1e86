import type { PhaseInput } from '../../executor.ts';
import type { Deliverable } from '../../run.types.ts';
import { PhaseStop, use } from '../tools.ts';
import { LAYOUT_HINT } from './electronics-phase.ts';

/** What eda.export_gerber returns (its ExportGerberResultSchema), reduced to what the phase records. */
interface GerberExport {
  files: { path: string; layer: string; kind: 'gerber' | 'drill' | 'job'; bytes: number }[];
  output_dir: string;
  layer_count: number;
  kicad_version: string;
  position_file: string;
  placed_count: number;
}

/** The fabrication set of the board: Gerbers, drill, job and KiCad's pick-and-place file, as recorded. */
export interface FabSet {
  board_ref: string;
  board_path: string;
  output_dir: string;
  files: GerberExport['files'];
  layers: string[];
  drill_files: string[];
  job_file: string | null;
  position_file: string;
  placed_count: number;
  copper_layers: number;
  kicad_version: string;
}

/** A node as twin.get_node returns it, reduced to what the phase reads. */
export interface TwinNode {
  id: string;
  name: string;
  item_key?: string | null;
  item_ref?: string | null;
  properties: Record<string, unknown>;
}

/** Reads a delivered node through twin.get_node as the run (its drafts visible). */
export const getNode = (input: PhaseInput, d: Deliverable) =>
  use<TwinNode>(input, 'twin.get_node', { node_id: d.node_id });

/**
 * Gerber, drill, job and position files of the pcb_layout the electronics phase delivered (its board_path, a
 * workspace .kicad_pcb that passed DRC there), written under `manufacturing/<run>/fab`. A layout whose board_path is
 * missing, not a board, or refused by the workspace (outside it) is a data failure naming the layout and what to
 * attach; a layout that failed DRC is a design failure. Runs before anything is recorded, so a refusal records nothing.
 */
export async function fabricationFiles(input: PhaseInput, pcb: TwinNode): Promise<FabSet> {
  const ref = pcb.item_ref ?? pcb.id;
  const boardPath = pcb.properties.board_path;
  if (typeof boardPath !== 'string' || !boardPath.endsWith('.kicad_pcb'))
    throw new PhaseStop('data', `the pcb_layout ${ref} names no board_path (.kicad_pcb): ${LAYOUT_HINT}`);
  const drc = pcb.properties.drc as { passed?: unknown } | undefined;
  if (drc?.passed === false)
    throw new PhaseStop('design', `the pcb_layout ${ref} (${boardPath}) failed DRC; fix the board before release`);
  let out: GerberExport;
  try {
    out = await use<GerberExport>(
      input,
      'eda.export_gerber',
      { board_path: boardPath, output_dir: `manufacturing/${input.run_id}/fab` },
      300,
    );
  } catch (err) {
    if (err instanceof PhaseStop && err.kind === 'data')
      throw new PhaseStop('data', `the pcb_layout ${ref} cannot be plotted (${err.message}): ${LAYOUT_HINT}`);
    throw err;
  }
  return {
    board_ref: ref,
    board_path: boardPath,
    output_dir: out.output_dir,
    files: out.files,
    layers: out.files.filter((f) => f.kind === 'gerber').map((f) => f.layer),
    drill_files: out.files.filter((f) => f.kind === 'drill').map((f) => f.path),
    job_file: out.files.find((f) => f.kind === 'job')?.path ?? null,
    position_file: out.position_file,
    placed_count: out.placed_count,
    copper_layers: out.layer_count,
    kicad_version: out.kicad_version,
  };
}

/** A mechanical part's STEP file for the manufacturer: the committed geometry's file, converted when it is not STEP. */
export interface StepFile {
  part: string;
  source_ref: string;
  path: string;
  converted: boolean;
}

/**
 * STEP of the design phase's cad_model: staged from the twin (this run's revision of the item), exported to STEP
 * with cadkernel.export_geometry only when the stored file is in another format.
 */
export async function mechanicalStep(input: PhaseInput, cad: Deliverable): Promise<StepFile> {
  if (!cad.ref) throw new PhaseStop('data', `the cad_model ${cad.node_id} has no item ref to stage`);
  const staged = await use<{ file_path: string; item_ref: string | null }>(input, 'twin.stage_work_product_file', {
    item_key: cad.ref,
  });
  const node = await getNode(input, cad);
  const source_ref = staged.item_ref ?? cad.ref;
  if (/\.(step|stp)$/i.test(staged.file_path))
    return { part: node.name, source_ref, path: staged.file_path, converted: false };
  const safe = node.name.replace(/[^A-Za-z0-9_.-]+/g, '_') || 'part';
  const out = await use<{ cad_file: string }>(input, 'cadkernel.export_geometry', {
    file_path: staged.file_path,
    format: 'STEP',
    output_path: `manufacturing/${input.run_id}/mech/${safe}.step`,
  });
  return { part: node.name, source_ref, path: out.cad_file, converted: true };
}
