/** Projects: the one list query every page's project filter reads (`GET /v1/projects`, the gateway's page limit). */
import { useQuery } from '@tanstack/react-query';
import type { Project, ProjectList } from '../../../contracts/projects.ts';
import { api, qs } from './gateway.ts';

export function useProjects(limit = 1000) {
  return useQuery({
    queryKey: ['projects', { limit }],
    queryFn: ({ signal }) => api<ProjectList>(`/v1/projects${qs({ limit })}`, { signal }),
  });
}

export const createProject = (name: string) =>
  api<Project>('/v1/projects', { method: 'POST', body: { name, description: '' } });
