import type { NodeApprovalKind } from '../../contracts/actions/twin-approvals.actions.ts';
import type { ApprovalDecision, ApprovalItem, GateFinding, LedgerKind } from '../../contracts/approvals.ts';

/** Where an item comes from and where its decision goes (never served). */
export type ItemSource =
  | {
      type: 'gate';
      run_id: string;
      gate_id: string;
      gone: boolean;
      idems: string[];
      /** Every decision the run applied, oldest first (a repeat of one is answered as applied, decision 0148). */
      decided?: AppliedDecision[];
    }
  | { type: 'ledger'; ledger_id: string; kind: LedgerKind }
  | { type: 'node'; node_id: string; kind: NodeApprovalKind };

/** A decision applied to an item: the instance it decided (a gate's `gate_id`, a record's id) and what it said. */
export interface AppliedDecision {
  instance: string;
  phase?: string;
  attempt?: number;
  decision: ApprovalDecision;
  reason: string;
  to_phase: string;
  approver: string;
  decided_at: string;
}

/** An item as its source gives it: every served field except the viewer's (decidable, not_decidable_reason). */
export type SourceItem = Omit<
  ApprovalItem,
  | 'decidable'
  | 'not_decidable_reason'
  | 'allowed_decisions'
  | 'rework_targets'
  | 'findings'
  | 'detail'
  | 'reason_required_for'
> & {
  allowed_decisions: ApprovalDecision[];
  rework_targets: string[];
  findings: GateFinding[];
  detail: Record<string, unknown>;
  /** Why nobody can decide it now although it is pending (elicitation route, a decision awaiting delivery, ...). */
  blocked: string | null;
  source: ItemSource;
};

/** Why a decision is refused: the catalogue code fixes the HTTP status (SPEC "HTTP statuses of the approvals API"). */
export type Refusal = { code: 'FORBIDDEN' | 'CONFLICT' | 'VALIDATION_FAILED'; message: string };
