import { call, type Caller } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { TwinComplianceActions } from '../../contracts/actions/twin-compliance.actions.ts';
import type { ClaimState } from './promotion.ts';

/**
 * The claims a promotion is judged on: the project's compliance checklist (the twin's, README "Compliance"), its
 * mandatory requirement items by ref when a request names none (any item, pack items too, when it names them). A requirement counts its current evidence as
 * verifying it; its stale evidence blocks only while the item is stale (an older result superseded by a current one is
 * history, not a doubt).
 */
export async function promotionClaims(
  via: Caller,
  projectId: string,
): Promise<{ claims: ClaimState[]; required: string[] }> {
  const list = await call(via, TwinComplianceActions.checklist, { project_id: projectId }).catch((err: unknown) => {
    if (err instanceof ActorError && (err.type === 'NOT_FOUND' || err.type === 'VALIDATION_FAILED'))
      throw new ActorError(
        'CONFLICT',
        `the promotion names project ${projectId}, which has no checklist: ${err.message}`,
        {
          project_id: projectId,
        },
      );
    throw err;
  });
  const claims = list.items.map((i): ClaimState => ({
    id: i.ref,
    status: i.status,
    verified_by: i.status === 'verified' ? i.evidence.filter((e) => !e.stale).map((e) => e.node_id) : [],
    stale_evidence: i.status === 'stale' ? i.evidence.filter((e) => e.stale).map((e) => e.node_id) : [],
  }));
  return {
    claims,
    required: list.items.filter((i) => i.source === 'requirement' && i.mandatory).map((i) => i.ref),
  };
}
