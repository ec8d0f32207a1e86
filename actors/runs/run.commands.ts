/** The run machine's inputs and outputs: the commands it decides on and the effects it asks for (types only). */
import type { GateFinding } from '../../contracts/approvals.ts';
import type { DraftScope } from '../../contracts/actions/twin.actions.ts';
import type { FrozenFlow } from '../../contracts/flow-defs.ts';
import type { RunEvent } from './run.events.ts';
import type { Decision, DecisionIdentity, Deliverable, FailureKind, RunLimits } from './run.types.ts';

/** What the deterministic core is asked to do. Time comes in through `env` (STYLE R4). */
export type RunCommand =
  | { type: 'create'; run_id: string; project_id: string | null; flow: FrozenFlow; patches: string[] }
  | {
      type: 'phaseResult';
      phase: string;
      attempt: number;
      ok: true;
      summary: string;
      deliverables: Deliverable[];
      findings?: GateFinding[];
    }
  | { type: 'phaseResult'; phase: string; attempt: number; ok: false; kind: FailureKind; message: string }
  | { type: 'gateEvaluated'; phase: string; attempt: number; findings: GateFinding[]; ready: boolean }
  | {
      type: 'decide';
      decision: Decision;
      reason: string;
      to_phase: string;
      identity: DecisionIdentity;
      idem: string;
      gate_id?: string;
      /** Approve over the open gate's overridable findings (decision 0060). */
      override_reason?: string;
    }
  | {
      type: 'commitResult';
      gate_id: string;
      idem: string;
      identity: DecisionIdentity;
      reason: string;
      override_reason?: string;
      ok: boolean;
      message: string;
    }
  | { type: 'cancel'; reason: string }
  | { type: 'patchFlow'; flow: FrozenFlow; base_hash: string; affected: string[]; note: string };

/** Side effects the shell runs after the events are stored. */
export type RunEffect =
  | { type: 'runPhase'; phase: string; attempt: number; notes: string[] }
  | { type: 'evaluateGate'; phase: string; attempt: number }
  | {
      type: 'commitDrafts';
      phase: string;
      gate_id: string;
      gate_name: string;
      approver: string;
      reason: string;
      idem: string;
      identity: DecisionIdentity;
      override_reason?: string;
    }
  | {
      type: 'closeDrafts';
      status: 'rejected' | 'abandoned';
      reason: string;
      /** Which drafts (decision 0142); absent: every draft of the run. The host fills it in (draft-scope.ts). */
      drafts?: DraftScope[];
    }
  | { type: 'gateOpened'; phase: string; gate_id: string; ready: boolean }
  | { type: 'ended'; status: string };

export type Refusal = { code: 'CONFLICT' | 'VALIDATION_FAILED' | 'PATCH_CONFLICT'; message: string };
export type Decided = { events: RunEvent[]; effects: RunEffect[]; refusal?: Refusal };

export interface RunEnv {
  now: string;
  limits: RunLimits;
}
