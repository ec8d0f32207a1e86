export { createApprovalsService } from './approvals.service.ts';
export { ApprovalsInternal } from './approvals.contract.ts';
export { decide, forViewer, HUMAN_AUTHORITY_KINDS, OFFERED, REASON_REQUIRED } from './approval.machine.ts';
export type {
  ApprovalEffect,
  ApprovalEnv,
  DecideCommand,
  ItemSource,
  Refusal,
  SourceItem,
} from './approval.machine.ts';
export { gateItem, ledgerItem, nodeItem, asDecision } from './approval.items.ts';
export type { GateInput, UndecidedGate } from './approval.items.ts';
export { findingLine, gateReason, parseFindings } from './findings.ts';
export { parseApprovalId } from './approvals.read.ts';
