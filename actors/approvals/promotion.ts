import type { AttemptPromotionRequest } from '../../contracts/approvals.ts';

/** A requirement as the compliance checklist gives it, reduced to what promotion reads. */
export interface ClaimState {
  id: string;
  status: string;
  /** Evidence items that verify it on current inputs. */
  verified_by: string[];
  /** Evidence of it computed on inputs that changed since (stale). */
  stale_evidence: string[];
}

/** A run's phases as promotion reads them (the request's run, when it names one). */
export interface RunGates {
  id: string;
  phases: { id: string; status: string }[];
}

/** One required-claim result (SPEC attempt-promotion response `results`). */
export interface ClaimResult {
  claimId: string;
  status: string;
  met: boolean;
  verified_by: string[];
  stale_evidence: string[];
  reason: string | null;
}

/** Why a claim does not hold for the promotion, or null when it does (verified by at least k, or waived; none stale). */
function claimReason(c: ClaimState | undefined, id: string, k: number): string | null {
  if (!c) return `${id} is not a requirement of this project`;
  if (c.stale_evidence.length) return `${id} has stale evidence (${c.stale_evidence.join(', ')}): its inputs changed`;
  if (c.status === 'waived') return null;
  if (c.status !== 'verified') return `${id} is ${c.status}`;
  if (c.verified_by.length < k) return `${id} is verified by ${c.verified_by.length} evidence item(s), ${k} required`;
  return null;
}

/**
 * The promotion criteria (issue 18), pure: every required claim (the request's requiredClaimIds, or every requirement of
 * the project when it names none; `required`) verified by at least `k` current evidence items or waived by an approved waiver, no
 * stale evidence, and every gate of the request's run approved (phases approved or skipped). A request with
 * `reject: true` records a refused promotion. Answers the spec's response fields besides gateId and decidedBy.
 */
export function evaluatePromotion(
  req: AttemptPromotionRequest,
  project: { claims: ClaimState[]; required: string[] },
  run: RunGates | null,
): { promoted: boolean; blockedReason: string | null; results: ClaimResult[] } {
  const byId = new Map(project.claims.map((c) => [c.id, c]));
  const ids = req.requiredClaimIds.length ? req.requiredClaimIds : project.required;
  const k = Math.max(1, Math.floor(req.k));
  const results = ids.map((id): ClaimResult => {
    const c = byId.get(id);
    const reason = claimReason(c, id, k);
    return {
      claimId: id,
      status: c?.status ?? 'unknown',
      met: reason === null,
      verified_by: c?.verified_by ?? [],
      stale_evidence: c?.stale_evidence ?? [],
      reason,
    };
  });
  const open = run?.phases.filter((p) => p.status !== 'approved' && p.status !== 'skipped') ?? [];
  const why = [
    ...(req.reject ? ['the request asks to refuse the promotion (reject: true)'] : []),
    ...(ids.length ? [] : ['the project has no requirements to promote on']),
    ...results.filter((r) => !r.met).map((r) => r.reason!),
    ...open.map((p) => `gate of phase ${p.id} of run ${run!.id} is not approved (${p.status})`),
  ];
  return { promoted: why.length === 0, blockedReason: why.length ? why.join('; ') : null, results };
}
