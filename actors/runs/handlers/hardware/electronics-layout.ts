import { call } from '../../../../brokers/actions.ts';
import { EdaLayoutActions } from '../../../../contracts/actions/eda-layout.actions.ts';
import type { LayoutResult } from '../../../../contracts/eda-layout.ts';
import type { PhaseInput } from '../../executor.ts';
import { PhaseStop } from '../tools.ts';
import { CHOICES } from './reference-data.ts';

/** Seconds the eda adapter may take to place and route a board (the router's passes dominate). */
const LAYOUT_TIMEOUT_S = 900;
/** Room left between the board and the housing's inner wall on each side (mm). */
const BOARD_TO_WALL_MM = 1;
/** The board hardware_v1 designs when the request states no size (reference-data.ts CHOICES.board). */
export const DEFAULT_BOARD_MM = { width: 50, height: 40 } as const;

export interface Outline {
  width: number;
  height: number;
  basis: string;
}

/**
 * The board outline (decision 0166): the size the request states (`a 45 x 35 mm board` / `PCB`), else the 50 x 40 mm
 * board of the reference data; either shrunk to what the enclosure's two largest inner dimensions leave (its 2 mm wall
 * and 1 mm to the wall on each side) when it would not fit. Pure.
 */
export function boardOutline(goal: string, envelope: number[] | null): Outline {
  const m = /(\d+(?:\.\d+)?)\s*(?:x|×|by)\s*(\d+(?:\.\d+)?)\s*mm\s+(?:[\w-]+\s+){0,2}(?:board|PCB)\b/i.exec(goal);
  const stated = m ? { width: Number(m[1]), height: Number(m[2]) } : null;
  const want = stated ?? DEFAULT_BOARD_MM;
  const basis = stated
    ? `stated in the request (${stated.width} x ${stated.height} mm)`
    : `no board size stated: ${DEFAULT_BOARD_MM.width} x ${DEFAULT_BOARD_MM.height} mm (${CHOICES.board.source})`;
  if (!envelope || envelope.length < 2) return { ...want, basis };
  const [a, b] = [...envelope].sort((x, y) => y - x);
  const room = (d: number) => d - 2 * CHOICES.housingWall.value - 2 * BOARD_TO_WALL_MM;
  const fit = { width: Math.min(want.width, room(a!)), height: Math.min(want.height, room(b!)) };
  if (fit.width === want.width && fit.height === want.height) return { ...want, basis };
  return {
    ...fit,
    basis: `${basis}, reduced to fit the ${envelope.join(' x ')} mm enclosure (${CHOICES.housingWall.value} mm wall, ${BOARD_TO_WALL_MM} mm to the wall)`,
  };
}

/** The failure kind of a layout call that did not answer (catalogue code -> failure taxonomy). */
function stopOf(err: unknown): PhaseStop {
  const e = err as { type?: string; message?: string };
  const msg = `adapters.eda.layout: ${e.message ?? String(err)}`;
  if (e.type === 'SERVICE_UNAVAILABLE' || e.type === 'SERVICE_NOT_FOUND' || e.type === 'SERVICE_NOT_AVAILABLE')
    return new PhaseStop('capability', `${msg} (the eda adapter places boards with KiCad 9, Debian package kicad)`);
  // A footprint the libraries lack or an outline the parts do not fit: this design cannot be laid out as it is.
  if (e.type === 'VALIDATION_FAILED') return new PhaseStop('design', msg);
  if (e.type === 'TIMEOUT' || e.type === 'REQUEST_TIMEOUT') return new PhaseStop('transient', msg);
  return new PhaseStop('tool', msg);
}

/**
 * A board for the run's schematic when the project has none (issue 31 point 5): placed, and routed when the router
 * is there, by the eda adapter (`adapters.eda.layout` over the run's bus) into `electronics/<run>/board.kicad_pcb`
 * (`board.routed.kicad_pcb` when routed). The board to check is the routed one when routing ran, else the placed one.
 */
export async function generateLayout(
  input: PhaseInput,
  schematicPath: string,
  outline: Outline,
): Promise<{ board_path: string; result: LayoutResult }> {
  let result: LayoutResult;
  try {
    result = await call(
      input.bus,
      EdaLayoutActions.layout,
      {
        schematic_path: schematicPath,
        output_path: schematicPath.replace(/\.kicad_sch$/, '.kicad_pcb'),
        outline: { width: outline.width, height: outline.height },
        // Placed, not routed, inside a run (decision 0166, amended): route-rnd completes 44-46% of the generated
        // board's connections (ROUTING.md), so a routed board fails KiCad's DRC as the placed one does, after minutes
        // of routing. The flow routes again once a router completes these boards (issue 31).
        route: false,
        timeout_seconds: LAYOUT_TIMEOUT_S,
      },
      { timeout: (LAYOUT_TIMEOUT_S + 15) * 1000, retries: 0 },
    );
  } catch (err) {
    throw stopOf(err);
  }
  const routed = result.routing?.output_path;
  return { board_path: typeof routed === 'string' ? routed : result.board_path, result };
}

/** What the pcb_layout records of a generated board: how it was placed and routed, with the figures. */
export function generatedProperties(r: LayoutResult, outline: Outline) {
  const routing = r.routing as Record<string, unknown> | undefined;
  const pick = (k: string) => (routing && k in routing ? { [k]: routing[k] } : {});
  return {
    generated: true,
    placed_board_path: r.board_path,
    outline_mm: { width: outline.width, height: outline.height, basis: outline.basis },
    placement: {
      method: r.method,
      footprints: r.footprints,
      nets: r.nets,
      wirelength_mm: r.wirelength_mm,
      decoupling: r.decoupling.map((d) => ({ cap: d.cap, pin: `${d.ic}.${d.pin}`, distance_mm: d.distance_mm })),
      ...(r.sensor_regulator_mm !== undefined ? { sensor_regulator_mm: r.sensor_regulator_mm } : {}),
    },
    routing: routing
      ? {
          routed: true,
          ...pick('router'),
          ...pick('completion'),
          ...pick('connections_to_route'),
          ...pick('connections_routed'),
          ...pick('track_length_mm'),
          ...pick('vias'),
          ...pick('stitching_vias'),
        }
      : { routed: false, why: r.routing_skipped ?? 'not routed' },
  };
}
