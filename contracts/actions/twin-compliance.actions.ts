import { defineAction } from '../define.ts';
import {
  ComplianceChecklistSchema,
  ComplianceCoverageSchema,
  ComplianceEvidenceListSchema,
  ComplianceProjectParamsSchema,
} from '../compliance.ts';

/**
 * The twin's compliance reads (served over `/v1/compliance/{project_id}/...`). Each answers NOT_FOUND for an unknown
 * project. `checklist` is the one to reuse for a promotion decision: every item with its status (verified, failed,
 * unverified, stale, waived), whether it is mandatory, and the evidence it rests on.
 */
export const TwinComplianceActions = {
  checklist: defineAction('twin.complianceChecklist', ComplianceProjectParamsSchema, ComplianceChecklistSchema),
  coverage: defineAction('twin.complianceCoverage', ComplianceProjectParamsSchema, ComplianceCoverageSchema),
  evidence: defineAction('twin.complianceEvidence', ComplianceProjectParamsSchema, ComplianceEvidenceListSchema),
} as const;
