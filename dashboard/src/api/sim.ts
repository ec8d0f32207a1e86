/** Queries of the 3D pages: projects for the filter, simulation results, twin nodes that carry files. */
import { useQuery } from '@tanstack/react-query';
import type { SimResultEntry, SimResultList } from '../../../contracts/simulation-views.ts';
import type { TwinNode } from '../../../contracts/twin-nodes.ts';
import { api, qs } from './gateway.ts';

export type { SimResultEntry, TwinNode };

export const useSimResults = (projectId: string) =>
  useQuery({
    queryKey: ['sim-results', { projectId }],
    queryFn: () => api<SimResultList>(`/v1/simulation/results${qs({ project_id: projectId, limit: 200 })}`),
  });

export interface NodePage {
  nodes: TwinNode[];
  total: number;
}

/** One page of visible twin nodes (newest first), filtered by project and node type. */
export const useTwinNodes = (p: { projectId: string; nodeType: string; offset: number; limit: number }) =>
  useQuery({
    queryKey: ['twin-nodes', p],
    queryFn: () =>
      api<NodePage>(
        `/v1/twin/nodes${qs({ project_id: p.projectId, node_type: p.nodeType, limit: p.limit, offset: p.offset })}`,
      ),
  });

/** A number from a loose record (results carry their solver numbers as recorded). */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
