/**
 * The unified approvals queue (SPEC "Approvals"): the list, one item, a decision. Every request goes through
 * `approvalsApi` (X-Service-Surface: dashboard), and a decision names the item state the person saw with `If-Match`
 * (its ETag), so a decision on a gate that moved on is refused (409) instead of deciding the next gate.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalsApi, qs } from './gateway.ts';
import type {
  ApprovalDecision,
  ApprovalItem,
  ApprovalKind,
  ApprovalListResponse,
} from '../../../contracts/approvals.ts';

export type { ApprovalDecision, ApprovalItem, ApprovalKind };

export type StatusFilter = 'pending' | 'decided' | 'all';

/** The spec's item kinds, for the kind filter. */
export const APPROVAL_KINDS = [
  'gate',
  'flow_proposal',
  'flow_version',
  'flow_patch',
  'tool_call',
  'human_authority',
  'design_change',
  'design_loop',
  'sketch',
  'drawing',
] as const satisfies readonly ApprovalKind[];
// The contract's kinds are the source: a kind added there and missing here fails the dashboard's typecheck.
type MissingKind = Exclude<ApprovalKind, (typeof APPROVAL_KINDS)[number]>;
const everyKind: [MissingKind] extends [never] ? true : MissingKind = true;
void everyKind;

export interface ApprovalFilters {
  status: StatusFilter;
  projectId?: string;
  kind?: string;
}

const STATUSES: readonly StatusFilter[] = ['pending', 'decided', 'all'];

/** The filters in the page's address (`?status=&project_id=&kind=`); pending when no status is named. */
export function filtersOf(params: URLSearchParams): ApprovalFilters {
  const status = STATUSES.find((s) => s === params.get('status')) ?? 'pending';
  return { status, projectId: params.get('project_id') || undefined, kind: params.get('kind') || undefined };
}

/** The queue's query; pending items poll every 4 s (the spec's limit is 5 s), decided lists every 15 s. */
export const approvalsListQuery = (f: ApprovalFilters) => ({
  queryKey: ['approvals', 'list', f],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    approvalsApi<ApprovalListResponse>(
      `/v1/approvals${qs({ status: f.status, project_id: f.projectId, kind: f.kind })}`,
      {
        signal,
      },
    ),
  refetchInterval: f.status === 'decided' ? 15_000 : 4_000,
});

export function useApprovals(f: ApprovalFilters) {
  return useQuery(approvalsListQuery(f));
}

/** One item (per-kind detail, ETag); `pollMs` while someone waits on it. */
export function useApproval(id: string | undefined, pollMs: number | false = 4_000) {
  return useQuery({
    queryKey: ['approvals', 'item', id],
    queryFn: ({ signal }) => approvalsApi<ApprovalItem>(`/v1/approvals/${encodeURIComponent(id!)}`, { signal }),
    enabled: Boolean(id),
    refetchInterval: pollMs,
  });
}

export interface DecisionInput {
  item: ApprovalItem;
  decision: ApprovalDecision;
  reason: string;
  toPhase: string;
  /** Approve over a gate's overridable findings (decision 0060). */
  overrideReason?: string;
}

/**
 * A decision on the unified route with the item's ETag as `If-Match`. The answer (the decided item) replaces the
 * cached item at once; lists and runs refetch.
 */
export function useDecide() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ item, decision, reason, toPhase, overrideReason }: DecisionInput) => {
      // A read in flight would land after the answer and show the decided state as still open.
      await client.cancelQueries({ queryKey: ['approvals', 'item', item.id] });
      return approvalsApi<ApprovalItem>(`/v1/approvals/${encodeURIComponent(item.id)}/decision`, {
        method: 'POST',
        headers: item.etag ? { 'If-Match': item.etag } : {},
        body: {
          decision,
          reason,
          ...(decision === 'rework' ? { to_phase: toPhase } : {}),
          ...(overrideReason !== undefined ? { override_reason: overrideReason } : {}),
        },
      });
    },
    onSuccess: (answer) => {
      client.setQueryData(['approvals', 'item', answer.id], answer);
      void client.invalidateQueries({ queryKey: ['approvals', 'list'] });
      void client.invalidateQueries({ queryKey: ['runs'] });
    },
  });
}
