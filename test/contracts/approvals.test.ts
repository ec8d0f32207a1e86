import { describe, expect, it } from 'vitest';
import {
  ApprovalDecisionSchema,
  ApprovalIdPrefixByKind,
  ApprovalIdSchema,
  ApprovalItemSchema,
  ApprovalKindSchema,
  ApprovalListResponseSchema,
  ApprovalRouteSchema,
  ApprovalStatusSchema,
  AttemptPromotionRequestSchema,
  AttemptPromotionResponseSchema,
  ChangeStatusSchema,
  DecisionBodySchema,
  DecisionChannelSchema,
  DecisionRecordSchema,
  DesignLoopApprovalBodySchema,
  GateDecisionEntrySchema,
  GateFindingKindSchema,
  GateFindingSchema,
  HeldCallOutcomeSchema,
  LedgerKindSchema,
  LedgerStatusSchema,
  NodeApprovalBodySchema,
  NodeApprovalResultSchema,
  PromotionLevelSchema,
  ProposalDecisionBodySchema,
  RecordedSurfaceSchema,
  RequiredClaimResultSchema,
  RunGateDecisionBodySchema,
  SurfaceHeaderSchema,
} from '../../contracts/approvals.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

const decision = {
  decision: 'approve',
  reason: 'looks right',
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
  decided_at: '2025-01-01T00:00:00Z',
};

describe('approval enums', () => {
  it('accept the spec values', () => {
    for (const k of Object.keys(ApprovalIdPrefixByKind)) expect(ok(ApprovalKindSchema, k), k).toBe(true);
    expect(ApprovalKindSchema.options).toHaveLength(10);
    expect(ApprovalStatusSchema.options).toEqual([
      'pending',
      'approved',
      'rejected',
      'expired',
      'canceled',
      'retried',
      'reworked',
    ]);
    expect(ApprovalDecisionSchema.options).toEqual(['approve', 'reject', 'retry', 'rework']);
    expect(ApprovalRouteSchema.options).toEqual(['dashboard', 'elicitation']);
    expect(GateFindingKindSchema.options).toContain('constraint_violation');
    expect(ChangeStatusSchema.options).toEqual(['pending', 'approved', 'rejected', 'applied', 'expired']);
    expect(SurfaceHeaderSchema.options).toEqual(['dashboard', 'cli', 'agent']);
    expect(RecordedSurfaceSchema.options).toEqual(['dashboard', 'cli', 'agent', 'unknown', 'chat', 'mcp']);
    expect(LedgerStatusSchema.options).toContain('awaiting_approval');
    expect(LedgerStatusSchema.options).toContain('failed');
    expect(LedgerKindSchema.options).toEqual([
      'tool_call',
      'human_authority',
      'flow_proposal',
      'flow_version',
      'flow_patch',
    ]);
    expect(HeldCallOutcomeSchema.options).toEqual(['rejected', 'timed_out', 'cancelled', 'not_configured']);
  });

  it('reject values outside the spec', () => {
    expect(ok(ApprovalKindSchema, 'gates')).toBe(false);
    expect(ok(ApprovalStatusSchema, 'cancelled')).toBe(false);
    expect(ok(ApprovalDecisionSchema, 'approved')).toBe(false);
    expect(ok(ApprovalRouteSchema, 'cli')).toBe(false);
    expect(ok(GateFindingKindSchema, 'warning')).toBe(false);
    expect(ok(ChangeStatusSchema, 'canceled')).toBe(false);
    expect(ok(SurfaceHeaderSchema, 'chat')).toBe(false);
    expect(ok(SurfaceHeaderSchema, 'unknown')).toBe(false);
    expect(ok(RecordedSurfaceSchema, 'web')).toBe(false);
    expect(ok(LedgerStatusSchema, 'pending')).toBe(false);
    expect(ok(LedgerKindSchema, 'gate')).toBe(false);
    expect(ok(HeldCallOutcomeSchema, 'canceled')).toBe(false);
  });
});

describe('ApprovalIdSchema', () => {
  it('accepts every spec prefix', () => {
    for (const prefix of new Set(Object.values(ApprovalIdPrefixByKind)))
      expect(ok(ApprovalIdSchema, `${prefix}42`)).toBe(true);
  });
  it('rejects an unknown prefix or an empty native id', () => {
    expect(ok(ApprovalIdSchema, 'run:42')).toBe(false);
    expect(ok(ApprovalIdSchema, 'gate:')).toBe(false);
  });
});

describe('GateFindingSchema', () => {
  it('accepts {kind, severity, message}', () => {
    expect(ok(GateFindingSchema, { kind: 'ungrounded', severity: 'blocking', message: 'node id not seen' })).toBe(true);
  });
  it('rejects an unknown kind or a missing message', () => {
    expect(ok(GateFindingSchema, { kind: 'style', severity: 'low', message: 'x' })).toBe(false);
    expect(ok(GateFindingSchema, { kind: 'other', severity: 'low' })).toBe(false);
  });
});

describe('DecisionRecordSchema', () => {
  it('accepts the spec fields', () => {
    expect(DecisionRecordSchema.parse(decision)).toEqual(decision);
  });
  it('rejects a non-boolean approver_verified or a header-only surface value', () => {
    expect(ok(DecisionRecordSchema, { ...decision, approver_verified: 'yes' })).toBe(false);
    expect(ok(DecisionRecordSchema, { ...decision, surface: 'web' })).toBe(false);
  });
  it('keeps an override reason, the channel and the principal (decisions 0060, 0061)', () => {
    const more = { ...decision, override_reason: 'let the FEA decide', channel: 'cli', principal: null };
    expect(DecisionRecordSchema.parse(more)).toEqual(more);
  });
});

describe('DecisionChannelSchema', () => {
  it('names dashboard, cli, api, mcp and chat only', () => {
    expect(DecisionChannelSchema.options).toEqual(['dashboard', 'cli', 'api', 'mcp', 'chat']);
    expect(ok(DecisionChannelSchema, 'agent')).toBe(false);
  });
});

describe('GateDecisionEntrySchema', () => {
  it('is a decision record with the gate it decided', () => {
    const entry = { ...decision, phase: 'feasibility', gate_id: 'r1:feasibility:1', attempt: 1, to_phase: '' };
    expect(GateDecisionEntrySchema.parse(entry)).toEqual(entry);
    expect(ok(GateDecisionEntrySchema, { ...entry, attempt: 'one' })).toBe(false);
    expect(ok(GateDecisionEntrySchema, decision)).toBe(false);
  });
});

describe('ApprovalItemSchema', () => {
  it('accepts a full gate item', () => {
    const item = {
      id: 'gate:run-1',
      kind: 'gate',
      status: 'pending',
      title: 'Gate after concept',
      summary: 'phase concept',
      project_id: 'p1',
      created_at: '2025-01-01T00:00:00Z',
      deadline: null,
      route: 'dashboard',
      requested_by: 'flow',
      reason_held: null,
      findings: [{ kind: 'analysis', severity: 'error', message: 'no FEA' }],
      allowed_decisions: ['reject', 'retry', 'rework'],
      rework_targets: ['requirements'],
      reason_required_for: ['reject', 'retry', 'rework'],
      decidable: true,
      not_decidable_reason: null,
      detail: { run_id: 'run-1', phase: 'concept', attempt: 1, retries_left: 3 },
      decision: null,
    };
    expect(ApprovalItemSchema.parse(item)).toEqual(item);
  });
  it("carries a gate's verdict table (decision 0080) and refuses a row with a status the evaluator never gives", () => {
    const row = {
      id: 'REQ-STRESS',
      constraint_set: 'REQS@1',
      metric: 'max_von_mises_mpa',
      operator: '<=',
      limit: 125,
      unit: 'MPa',
      severity: 'error',
      blocking: true,
      status: 'fail',
      value: 600,
      evidence: { kind: 'simulation_result', node_id: 'n1', ref: 'SIM@1' },
      reason: '600 MPa > 125 MPa',
    };
    const gate = { id: 'gate:run-1', kind: 'gate', status: 'pending', title: 'Simulation review' };
    expect(ApprovalItemSchema.parse({ ...gate, verdicts: [row] }).verdicts).toEqual([row]);
    expect(ok(ApprovalItemSchema, { ...gate, verdicts: [{ ...row, status: 'no_data' }] })).toBe(false);
    expect(ok(ApprovalItemSchema, { ...gate, verdicts: [{ ...row, blocking: undefined }] })).toBe(false);
  });
  it('fills summary and decidable with the spec defaults', () => {
    const parsed = ApprovalItemSchema.parse({ id: 'tool:7', kind: 'tool_call', status: 'pending', title: 'run_fea' });
    expect(parsed.summary).toBe('');
    expect(parsed.decidable).toBe(false);
  });
  it('rejects a missing title, an unknown status and an unknown allowed decision', () => {
    expect(ok(ApprovalItemSchema, { id: 'tool:7', kind: 'tool_call', status: 'pending' })).toBe(false);
    expect(ok(ApprovalItemSchema, { id: 'tool:7', kind: 'tool_call', status: 'open', title: 't' })).toBe(false);
    const bad = { id: 'tool:7', kind: 'tool_call', status: 'pending', title: 't', allowed_decisions: ['skip'] };
    expect(ok(ApprovalItemSchema, bad)).toBe(false);
  });
});

describe('ApprovalListResponseSchema', () => {
  it('defaults unscoped_count to 0', () => {
    expect(ApprovalListResponseSchema.parse({ items: [] })).toEqual({ items: [], unscoped_count: 0 });
  });
  it('rejects a negative or fractional unscoped_count', () => {
    expect(ok(ApprovalListResponseSchema, { items: [], unscoped_count: -1 })).toBe(false);
    expect(ok(ApprovalListResponseSchema, { items: [], unscoped_count: 1.5 })).toBe(false);
  });
});

describe('DecisionBodySchema', () => {
  it('accepts {decision, reason, to_phase} and strips body identity fields', () => {
    const parsed = DecisionBodySchema.parse({
      decision: 'rework',
      reason: 'r',
      to_phase: 'concept',
      approvedBy: 'mallory',
    });
    expect(parsed).toEqual({ decision: 'rework', reason: 'r', to_phase: 'concept' });
  });
  it('rejects a missing or unknown decision', () => {
    expect(ok(DecisionBodySchema, { reason: 'r' })).toBe(false);
    expect(ok(DecisionBodySchema, { decision: 'defer' })).toBe(false);
  });
});

describe('RunGateDecisionBodySchema', () => {
  it('defaults reason and to_phase to empty strings', () => {
    expect(RunGateDecisionBodySchema.parse({ decision: 'approve' })).toEqual({
      decision: 'approve',
      reason: '',
      to_phase: '',
    });
  });
  it('rejects a missing decision and over-long reason or to_phase', () => {
    expect(ok(RunGateDecisionBodySchema, {})).toBe(false);
    expect(ok(RunGateDecisionBodySchema, { decision: 'reject', reason: 'x'.repeat(2001) })).toBe(false);
    expect(ok(RunGateDecisionBodySchema, { decision: 'rework', to_phase: 'x'.repeat(201) })).toBe(false);
    expect(ok(RunGateDecisionBodySchema, { decision: 'reject', reason: 'x'.repeat(2000) })).toBe(true);
  });
});

describe('ProposalDecisionBodySchema', () => {
  const body = {
    change_id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c',
    decision: 'approve',
    reason: 'ok',
    reviewer: 'ann',
  };
  it('accepts the four required fields', () => {
    expect(ProposalDecisionBodySchema.parse(body)).toEqual(body);
  });
  it('rejects a non-uuid change_id, an empty reason, retry, and a missing reviewer', () => {
    expect(ok(ProposalDecisionBodySchema, { ...body, change_id: 'c-1' })).toBe(false);
    expect(ok(ProposalDecisionBodySchema, { ...body, reason: '' })).toBe(false);
    expect(ok(ProposalDecisionBodySchema, { ...body, decision: 'retry' })).toBe(false);
    const { reviewer: _r, ...noReviewer } = body;
    expect(ok(ProposalDecisionBodySchema, noReviewer)).toBe(false);
  });
});

describe('DesignLoopApprovalBodySchema', () => {
  it('accepts {approvedBy}', () => {
    expect(DesignLoopApprovalBodySchema.parse({ approvedBy: 'ann' })).toEqual({ approvedBy: 'ann' });
  });
  it('rejects a missing or non-string approvedBy', () => {
    expect(ok(DesignLoopApprovalBodySchema, {})).toBe(false);
    expect(ok(DesignLoopApprovalBodySchema, { approvedBy: null })).toBe(false);
  });
});

describe('NodeApprovalBodySchema and NodeApprovalResultSchema', () => {
  it('accept approved_by as string or null and the {node_id, approved, approved_at} answer', () => {
    expect(ok(NodeApprovalBodySchema, { approved_by: null })).toBe(true);
    expect(ok(NodeApprovalBodySchema, { approved_by: 'ann' })).toBe(true);
    expect(ok(NodeApprovalResultSchema, { node_id: 'n1', approved: true, approved_at: '2025-01-01T00:00:00Z' })).toBe(
      true,
    );
  });
  it('reject a numeric approved_by and a string approved', () => {
    expect(ok(NodeApprovalBodySchema, { approved_by: 3 })).toBe(false);
    expect(ok(NodeApprovalResultSchema, { node_id: 'n1', approved: 'yes', approved_at: 'x' })).toBe(false);
  });
});

describe('AttemptPromotionRequestSchema', () => {
  it('fills k with 1 and reject with false', () => {
    const parsed = AttemptPromotionRequestSchema.parse({ projectId: 'p1', level: 'L2', requiredClaimIds: ['c1'] });
    expect(parsed).toEqual({ projectId: 'p1', level: 'L2', requiredClaimIds: ['c1'], k: 1, reject: false });
  });
  it('rejects a missing requiredClaimIds and a non-boolean reject', () => {
    expect(ok(AttemptPromotionRequestSchema, { projectId: 'p1', level: 2 })).toBe(false);
    expect(ok(AttemptPromotionRequestSchema, { projectId: 'p1', level: 2, requiredClaimIds: [], reject: 'no' })).toBe(
      false,
    );
  });
});

describe('AttemptPromotionResponseSchema', () => {
  const res = {
    gateId: 'g1',
    level: 2,
    promoted: false,
    blockedReason: 'claim c1 lacks evidence',
    decidedBy: null,
    comment: null,
    results: [{ claimId: 'c1', passed: false }],
  };
  it('accepts the spec shape with permissive claim results', () => {
    expect(AttemptPromotionResponseSchema.parse(res)).toEqual(res);
    expect(ok(RequiredClaimResultSchema, { anything: [1, 2] })).toBe(true);
    expect(ok(PromotionLevelSchema, 'L1')).toBe(true);
  });
  it('rejects a non-boolean promoted and a non-object claim result', () => {
    expect(ok(AttemptPromotionResponseSchema, { ...res, promoted: 'no' })).toBe(false);
    expect(ok(AttemptPromotionResponseSchema, { ...res, results: ['c1'] })).toBe(false);
    expect(ok(PromotionLevelSchema, '')).toBe(false);
  });
});
