/**
 * `/projects/:id`: the project (`GET /v1/projects/{id}`) and what it holds: runs, pending approvals, current twin items,
 * a BOM summary and the latest simulation results (project-sections.tsx), each from its own gateway route.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { Project } from '../../../contracts/projects.ts';
import { api } from '../api/gateway.ts';
import { ErrorNote, Loading, Page, When } from '../ui/common.tsx';
import { ApprovalsSection, BomSection, RunsSection, SimSection, TwinSection } from './project-sections.tsx';

export function Component() {
  const id = useParams().id ?? '';
  const project = useQuery({
    queryKey: ['project', id],
    queryFn: ({ signal }) => api<Project>(`/v1/projects/${encodeURIComponent(id)}`, { signal }),
  });
  const p = project.data;
  const q = `?project=${encodeURIComponent(id)}`;
  return (
    <Page title={p ? `Project ${p.name}` : 'Project'}>
      <p>
        <Link to="/projects">All projects</Link>
      </p>
      {project.isLoading && <Loading what="the project" />}
      <ErrorNote error={project.error} prefix={`Project ${id}`} />
      {p && (
        <>
          <dl className="kv" data-testid="project-detail">
            <dt>Name</dt>
            <dd>{p.name}</dd>
            <dt>Description</dt>
            <dd>{p.description || <span className="muted">none</span>}</dd>
            <dt>Id</dt>
            <dd>
              <code>{p.id}</code>
            </dd>
            <dt>Created</dt>
            <dd>
              <When at={p.created_at} />
            </dd>
            <dt>Updated</dt>
            <dd>
              <When at={p.updated_at} />
            </dd>
          </dl>
          <nav aria-label="This project elsewhere" className="toolbar">
            <Link to={`/runs/new?project_id=${encodeURIComponent(id)}`}>New run</Link>
            <Link to={`/sessions${q}`}>Sessions</Link>
            <Link to={`/twin${q}`}>Twin</Link>
            <Link to={`/bom${q}`}>BOM</Link>
            <Link to={`/files${q}`}>Files</Link>
            <Link to={`/knowledge${q}`}>Knowledge</Link>
            <Link to={`/compliance${q}`}>Compliance</Link>
          </nav>
          <RunsSection projectId={id} />
          <ApprovalsSection projectId={id} />
          <TwinSection projectId={id} />
          <BomSection projectId={id} />
          <SimSection projectId={id} />
        </>
      )}
    </Page>
  );
}
