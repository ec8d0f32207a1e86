/**
 * `/projects`, the landing route: every project (`GET /v1/projects`), a form to create one (`POST /v1/projects`) and
 * an inline rename per row (`PATCH /v1/projects/{id}` with `{name}`). Names link to `/projects/:id`.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Project } from '../../../contracts/projects.ts';
import { api } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, Page, When } from '../ui/common.tsx';
import { useProjects } from '../ui/project-picker.tsx';

export function Component() {
  const projects = useProjects();
  const list = projects.data?.projects ?? [];
  return (
    <Page title="Projects">
      <CreateProject />
      <h2>
        All projects{projects.data ? ` (${projects.data.total})` : ''}
        {projects.data && projects.data.total > list.length && (
          <span className="muted"> · showing the first {list.length}</span>
        )}
      </h2>
      {projects.isLoading && <Loading what="projects" />}
      <ErrorNote error={projects.error} prefix="Could not load the projects" />
      {projects.data && list.length === 0 && <Empty>No projects yet: create the first one above.</Empty>}
      {list.length > 0 && (
        <table className="grid" data-testid="projects-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Id</th>
              <th scope="col">Created</th>
              <th scope="col">Updated</th>
              <th scope="col">Rename</th>
            </tr>
          </thead>
          <tbody>
            {list.map((p) => (
              <ProjectRow key={p.id} project={p} />
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}

function CreateProject() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: (body: { name: string; description: string }) => api<Project>('/v1/projects', { method: 'POST', body }),
    onSuccess: async (p) => {
      setName('');
      setDescription('');
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate({ name: name.trim(), description });
  };
  return (
    <section className="panel" aria-labelledby="new-project-h">
      <h2 id="new-project-h" style={{ marginTop: 0 }}>
        New project
      </h2>
      <form className="toolbar" onSubmit={submit} style={{ marginBottom: 0 }}>
        <label>
          Name
          <input name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label style={{ flex: 1, minWidth: 240 }}>
          Description (optional)
          <input name="description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={create.isPending || !name.trim()}>
          {create.isPending ? 'Creating…' : 'Create project'}
        </button>
      </form>
      <ErrorNote error={create.error} prefix="The project was not created" />
      {create.data && (
        <p role="status" data-testid="project-created">
          Created <Link to={`/projects/${encodeURIComponent(create.data.id)}`}>{create.data.name}</Link>.
        </p>
      )}
    </section>
  );
}

function ProjectRow(props: { project: Project }) {
  const p = props.project;
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(p.name);
  const rename = useMutation({
    mutationFn: (next: string) =>
      api<Project>(`/v1/projects/${encodeURIComponent(p.id)}`, { method: 'PATCH', body: { name: next } }),
    onSuccess: async () => {
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
      await queryClient.invalidateQueries({ queryKey: ['project', p.id] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && name.trim() !== p.name) rename.mutate(name.trim());
    else setEditing(false);
  };
  return (
    <tr>
      <td>
        <Link to={`/projects/${encodeURIComponent(p.id)}`}>{p.name}</Link>
      </td>
      <td>{p.description || <span className="muted">—</span>}</td>
      <td>
        <code>{p.id}</code>
      </td>
      <td>
        <When at={p.created_at} />
      </td>
      <td>
        <When at={p.updated_at} />
      </td>
      <td>
        {editing ? (
          <form onSubmit={submit} style={{ display: 'flex', gap: 4, alignItems: 'end' }}>
            <label>
              New name for {p.name}
              <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus />
            </label>
            <button type="submit" className="primary" disabled={rename.isPending}>
              Save
            </button>
            <button type="button" onClick={() => (setEditing(false), setName(p.name))}>
              Cancel
            </button>
          </form>
        ) : (
          <button type="button" onClick={() => setEditing(true)} aria-label={`Rename ${p.name}`}>
            Rename
          </button>
        )}
        <ErrorNote error={rename.error} prefix="Not renamed" />
      </td>
    </tr>
  );
}
