import type { ActionSchema, Context } from 'moleculer';
import { action, call } from '../../../brokers/actions.ts';
import type { Db } from '../../../brokers/db/index.ts';
import { ProjectsActions } from '../../../contracts/actions/projects.actions.ts';
import { RunsActions } from '../../../contracts/actions/runs.actions.ts';
import { TwinComplianceActions as C } from '../../../contracts/actions/twin-compliance.actions.ts';
import { evaluateEvidence, type RequirementVerdict } from '../../../contracts/requirement-verdicts.ts';
import { gateEvidence } from '../run-reads.ts';
import { readComplianceRows } from './compliance.reads.ts';
import type { HeadRow } from './evidence.rules.ts';
import { verdictKey } from './items.rules.ts';
import { evaluateCompliance, type ComplianceReport } from './report.rules.ts';

/** Runs a project may have had (its flows give its product types); more than this many is not a project of one product. */
const RUN_LIMIT = 500;

/**
 * The project's compliance report: the project must exist (the projects actor answers NOT_FOUND otherwise), its
 * runs name the flows (hence the packs), the twin's own rows are the requirements and the evidence; the pure rules
 * (`report.rules.ts`) do the rest. Other actors are asked through `ctx` only (STYLE R11).
 */
export async function complianceReport(db: Db, ctx: Context, projectId: string): Promise<ComplianceReport> {
  await call(ctx, ProjectsActions.get, { id: projectId });
  const [{ runs }, rows] = await Promise.all([
    call(ctx, RunsActions.list, { project_id: projectId, limit: RUN_LIMIT }),
    readComplianceRows(db, projectId),
  ]);
  const verdicts = await runVerdicts(db, projectId, rows.heads);
  return evaluateCompliance({ project_id: projectId, design_flows: runs.map((r) => r.design_flow), ...rows, verdicts });
}

/**
 * The one evaluator's verdicts (decision 0080) of the requirements each run wrote, on that run's own evidence (the
 * same `gateEvidence` its gates and lifecycle view read, without open drafts: an HTTP reader is in no run), keyed by
 * set revision and requirement id.
 */
async function runVerdicts(db: Db, projectId: string, heads: HeadRow[]) {
  const runIds = [...new Set(heads.filter((h) => h.item_type === 'constraint_set' && h.run_id).map((h) => h.run_id!))];
  const out = new Map<string, RequirementVerdict>();
  for (const runId of runIds) {
    const ev = await gateEvidence(db, projectId, runId, false);
    const verdicts = evaluateEvidence(ev);
    for (const v of verdicts) out.set(verdictKey(v.constraint_set, v.id), v);
  }
  return out;
}

/**
 * The twin's compliance actions (`TwinComplianceActions`), spread into its `actions`. `twin.complianceChecklist` is
 * the reusable one (a promotion decision reads it: actors/approvals/promotion-claims.ts). `db` is read at call time.
 */
export function complianceActions(db: () => Db): Record<string, ActionSchema> {
  return {
    complianceChecklist: action(
      C.checklist,
      async (p, ctx) => (await complianceReport(db(), ctx, p.project_id)).checklist,
    ),
    complianceCoverage: action(
      C.coverage,
      async (p, ctx) => (await complianceReport(db(), ctx, p.project_id)).coverage,
    ),
    complianceEvidence: action(
      C.evidence,
      async (p, ctx) => (await complianceReport(db(), ctx, p.project_id)).evidence,
    ),
  };
}
