import type { Caller as BusCaller } from '../../brokers/actions.ts';
import type { Caller } from '../../contracts/actions/adapters.actions.ts';
import type { PhaseDef } from '../../contracts/flow-defs.ts';
import type { GateFinding } from '../../contracts/approvals.ts';
import type { ToolResult } from '../../contracts/tool-result.ts';
import type { Deliverable, FailureKind } from './run.types.ts';

/** What a phase handler gets: the run, the phase, why it runs again, the request, and tools as the service caller. */
export interface PhaseInput {
  run_id: string;
  project_id: string | null;
  flow_id: string;
  phase: PhaseDef;
  attempt: number;
  /** RETRY / REWORK notes the handler reads first. */
  notes: string[];
  /** The design-flow request (goal text, context) and the facts frozen with the flow. */
  request: Record<string, unknown>;
  facts: Record<string, unknown>;
  /** What earlier phases of this run delivered, by phase id (their twin nodes and refs). */
  prior: Record<string, Deliverable[]>;
  /** Calls a tool through the registry as the internal service caller (approval mode `forward`), scoped to the run. */
  callTool(name: string, args: Record<string, unknown>, timeoutSeconds?: number): Promise<ToolResult>;
  /**
   * The caller `callTool` uses (serviceCaller under the run's epoch), for a model-driven phase whose tools the harness
   * runs (`harness.turn` with this caller: approval mode forward). Absent: serviceCaller(input) without an epoch.
   */
  caller?: Caller;
  /**
   * The bus, for other actors' read-only actions (e.g. `flows.compileIntent`) and engine actions that write only their
   * own workspace outputs (`firmware.build`); anything that writes the twin goes through callTool.
   */
  bus: BusCaller;
  signal: AbortSignal;
}

export type PhaseOutcome =
  | { ok: true; summary: string; deliverables: Deliverable[]; findings?: GateFinding[] }
  | { ok: false; kind: FailureKind; message: string };

/** Runs one phase attempt. Handlers never throw for expected failures: they answer a failure kind. */
export type PhaseExecutor = (input: PhaseInput) => Promise<PhaseOutcome>;

/**
 * The caller identity of a phase's tool calls (SPEC chat rule 9: approval mode `forward`); `epoch` is the run's
 * ownership epoch the execution was started under, so the twin refuses its writes once the run was taken over, and
 * the attempt is recorded on its drafts (only that attempt's gate commits them, decision 0142).
 */
export function serviceCaller(
  input: Pick<PhaseInput, 'run_id' | 'project_id' | 'phase'> & { attempt?: number },
  epoch?: number,
): Caller {
  return {
    kind: 'service',
    transport: 'internal',
    run_id: input.run_id,
    ...(epoch !== undefined ? { run_epoch: epoch } : {}),
    project_id: input.project_id ?? undefined,
    phase: input.phase.id,
    ...(input.attempt !== undefined ? { run_attempt: input.attempt } : {}),
    client: 'design-flow',
  };
}
