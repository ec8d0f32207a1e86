import type { FrozenFlow } from '../../contracts/flow-defs.ts';
import type { GateFinding } from '../../contracts/approvals.ts';

/** Where a phase stands. `awaiting_gate`: its work finished and its gate is queued or open. */
export type PhaseStatus = 'pending' | 'running' | 'awaiting_gate' | 'approved' | 'skipped' | 'failed';

export type RunStatus = 'created' | 'running' | 'awaiting_approval' | 'completed' | 'failed' | 'rejected' | 'cancelled';

export type FailureKind =
  'transient' | 'tool' | 'data' | 'capability' | 'design' | 'authorization' | 'environment' | 'reasoning' | 'unknown';

export interface Deliverable {
  type: string;
  node_id: string;
  ref?: string;
}

export interface PhaseState {
  status: PhaseStatus;
  attempt: number;
  /** Gate retries used for this phase (cap 3). */
  retries: number;
  started_at?: string;
  finished_at?: string;
  summary?: string;
  deliverables: Deliverable[];
  failure?: { kind: FailureKind; message: string };
  /** The phase's own findings (a hand calculation over its allowable), added to its gate's (decision 0060). */
  findings?: GateFinding[];
  /** Why it is pending again (retry/rework notes the executor reads first). */
  notes: string[];
  skip_reason?: string;
}

/** Who decided, from where (SPEC "Decision record"). */
export interface DecisionIdentity {
  approver: string;
  approver_verified: boolean;
  surface: string;
  on_behalf_of: string | null;
  agent: string | null;
  /** Where it was sent from and the authenticated principal (decision 0061); absent on older decisions. */
  channel?: string;
  principal?: string | null;
  /** The OAuth client of the decision's token, null without one. */
  client_id?: string | null;
}

export type Decision = 'approve' | 'reject' | 'retry' | 'rework';

export interface DecisionEntry extends DecisionIdentity {
  phase: string;
  gate_id: string;
  decision: Decision;
  reason: string;
  to_phase: string;
  decided_at: string;
  idem: string;
  /** Why the person approved over the gate's overridable findings (decision 0060). */
  override_reason?: string;
}

export interface OpenGate {
  phase: string;
  attempt: number;
  gate_id: string;
  findings: GateFinding[];
  ready: boolean;
  stalled: boolean;
  opened_at: string;
  /** The last commit conflict on approve, if any (the gate stays open; retry rebases). */
  conflict?: string;
}

export interface RunState {
  id: string;
  project_id: string | null;
  flow: FrozenFlow;
  status: RunStatus;
  phases: Record<string, PhaseState>;
  /** Phases whose work finished, waiting for their gate to open, in flow order. */
  gate_queue: string[];
  gate?: OpenGate;
  /** Reworks of the whole run (informational; the cap is per gate: `reworksAt` in gate-rules.ts, decision 0146). */
  reworks: number;
  /** Per phase: key of the last not-ready findings and how many times in a row they repeated. */
  not_ready: Record<string, { key: string; streak: number }>;
  decisions: DecisionEntry[];
  patches: string[];
  seq: number;
  created_at: string;
  updated_at: string;
  ended?: { status: RunStatus; kind?: FailureKind; message: string };
}

/** Caps (SPEC Limits: retries and reworks 3 each per gate; stall stop default 3, minimum 2). */
export interface RunLimits {
  maxRetries: number;
  maxReworks: number;
  stallStop: number;
}
export const DEFAULT_LIMITS: RunLimits = { maxRetries: 3, maxReworks: 3, stallStop: 3 };
