import type { ActionSchema } from 'moleculer';
import { action } from '../../../../brokers/actions.ts';
import { ActorError } from '../../../../brokers/errors.ts';
import { EdaLayoutActions } from '../../../../contracts/actions/eda-layout.actions.ts';
import type { LayoutResult } from '../../../../contracts/eda-layout.ts';
import { InvalidArgumentsError, ToolError, ToolUnavailableError } from '../../kit/tool.ts';
import type { Workspace } from '../../kit/workspace.ts';
import { layoutBoard } from './layout.ts';
import { routeBoard } from './route.ts';

/** The board's routed revision beside the placed one: `board.kicad_pcb` -> `board.routed.kicad_pcb`. */
export const routedPath = (placed: string) => placed.replace(/\.kicad_pcb$/, '.routed.kicad_pcb');

/**
 * The eda adapter's `adapters.eda.layout` action (decision 0165): places the board (layout.ts) and, when asked and
 * the router is there, routes it (route.ts, with its ground pour and KiCad's check with the parity) into
 * `<stem>.routed.kicad_pcb`. A router that cannot run (not installed, or failing) leaves the placed board and says
 * why in `routing_skipped`; it never turns into a claimed route. Failures cross the bus as catalogue errors:
 * VALIDATION_FAILED (a footprint the libraries lack, an outline too small, a path outside the workspace),
 * SERVICE_UNAVAILABLE (KiCad missing), TIMEOUT, INTERNAL (an engine failed, its message kept).
 */
export function layoutActions(ws: Workspace): Record<string, ActionSchema> {
  return {
    layout: action(EdaLayoutActions.layout, async (req): Promise<LayoutResult> => {
      const signal = AbortSignal.timeout(req.timeout_seconds * 1000);
      try {
        const placed = await layoutBoard(ws, req, signal);
        if (!req.route) return { ...placed, routing_skipped: 'not asked (route: false)' };
        try {
          const routed = await routeBoard(
            ws,
            {
              board_path: placed.board_path,
              output_path: routedPath(placed.board_path),
              schematic_path: req.schematic_path,
            },
            signal,
          );
          return { ...placed, routing: { ...routed } };
        } catch (err) {
          if (signal.aborted) throw err;
          if (err instanceof ToolError) return { ...placed, routing_skipped: `routing failed: ${err.message}` };
          throw err;
        }
      } catch (err) {
        if (signal.aborted)
          throw new ActorError('TIMEOUT', `the layout took longer than ${req.timeout_seconds} s`, {
            schematic_path: req.schematic_path,
          });
        if (err instanceof InvalidArgumentsError) throw ActorError.validation(err.issues(), err.message);
        if (err instanceof ToolUnavailableError)
          throw new ActorError('SERVICE_UNAVAILABLE', err.message, { missing: err.details });
        if (err instanceof ToolError)
          throw new ActorError('INTERNAL', err.message, { schematic_path: req.schematic_path });
        throw err;
      }
    }),
  };
}
