/**
 * Design-flow runs as the dashboard reads them (SPEC "Projects, runs, flows"): the run list, one run, its flow state,
 * lifecycle verdict, the revisions and gates of `/v1/twin/runs/{id}/changes`, the project's baselines, the intent
 * compiler and `POST /v1/runs`. A run that has not ended is polled about every second so its page follows it.
 */
import { useQuery } from '@tanstack/react-query';
import { api, qs } from './gateway.ts';
import type { z } from 'zod';
import type { RunStartSchema, RunView } from '../../../contracts/actions/runs.actions.ts';
import type { FlowState, LifecycleView, RunChanges } from '../../../contracts/design-flows.ts';
import type { UsageTotals } from '../../../contracts/flows.ts';
import type { CompiledIntent } from '../../../contracts/intent.ts';
import type { Project } from '../../../contracts/projects.ts';
import type { BaselineSummary } from '../../../contracts/twin.ts';

export type { RunView, FlowState, LifecycleView, RunChanges, CompiledIntent, Project };
export type RunWithUsage = RunView & { usage: UsageTotals };

/** The design flows `POST /v1/runs` starts (SPEC: `hardware_v1` or `mech_v1`). */
export const DESIGN_FLOWS = [
  { id: 'mech_v1', label: 'Mechanical part (mech_v1)' },
  { id: 'hardware_v1', label: 'Electronics hardware (hardware_v1)' },
] as const;

const ENDED = new Set(['completed', 'failed', 'rejected', 'cancelled']);

/** A run that will not move again (the view's `ended`, or a final status). */
export const runEnded = (run: Pick<RunView, 'ended' | 'status'> | undefined) =>
  Boolean(run && (run.ended || ENDED.has(run.status)));

/** Poll about once a second until the run ended. */
const whileMoving = (ended: boolean) => (ended ? false : 1_000);

export function useRuns(projectId: string | undefined, limit: number) {
  return useQuery({
    queryKey: ['runs', { projectId, limit }],
    queryFn: ({ signal }) =>
      api<{ runs: RunView[]; total: number }>(`/v1/runs${qs({ project_id: projectId, limit })}`, { signal }),
    refetchInterval: 3_000,
  });
}

export function useRun(id: string) {
  return useQuery({
    queryKey: ['runs', id],
    queryFn: ({ signal }) => api<RunWithUsage>(`/v1/runs/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (q) => whileMoving(runEnded(q.state.data)),
  });
}

/** A part of one run's picture that follows the run while it moves (`ended` comes from the run query). */
function useRunPart<T>(id: string, part: string, path: string, ended: boolean, enabled = true) {
  return useQuery({
    // `ended` in the key: the part is read once more when the run ends (its last poll may predate the end).
    queryKey: ['runs', id, part, { ended }],
    queryFn: ({ signal }) => api<T>(path, { signal }),
    refetchInterval: whileMoving(ended),
    enabled,
  });
}

export const useFlowState = (id: string, ended: boolean) =>
  useRunPart<FlowState>(id, 'flow-state', `/v1/runs/${encodeURIComponent(id)}/flow-state`, ended);

export const useLifecycle = (id: string, ended: boolean, enabled = true) =>
  useRunPart<LifecycleView>(id, 'lifecycle', `/v1/runs/${encodeURIComponent(id)}/lifecycle`, ended, enabled);

export const useRunChanges = (id: string, ended: boolean) =>
  useRunPart<RunChanges>(id, 'changes', `/v1/twin/runs/${encodeURIComponent(id)}/changes`, ended);

/** The baselines of the run's project that this run's gates recorded. */
export function useRunBaselines(run: RunView | undefined, ended: boolean) {
  const projectId = run?.project_id ?? undefined;
  return useQuery({
    queryKey: ['baselines', { projectId, run: run?.id, ended }],
    queryFn: async ({ signal }) => {
      const list = await api<{ baselines: BaselineSummary[]; total: number }>(
        `/v1/twin/baselines${qs({ project_id: projectId, limit: 500 })}`,
        { signal },
      );
      return list.baselines.filter((b) => b.run_id === run?.id);
    },
    enabled: Boolean(run),
    refetchInterval: ended ? false : 3_000,
  });
}

export const compileIntent = (request: string, designFlow: string) =>
  api<CompiledIntent>('/v1/design-flows/intent', {
    method: 'POST',
    body: { request, context: { design_flow: designFlow } },
  });

export const startRun = (
  body: Pick<z.input<typeof RunStartSchema>, 'design_flow' | 'project_id' | 'goal' | 'revise'>,
) => api<RunView>('/v1/runs', { method: 'POST', body: { ...body, start: true } });
