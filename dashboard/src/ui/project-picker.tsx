/**
 * The one project filter: a labelled <select> bound to a search param (`project` unless the page's address names it
 * otherwise: `/runs` and `/approvals` keep `project_id`), empty = every project, and the project list query it reads
 * (`GET /v1/projects`, the first 1000, the gateway's page limit).
 */
import { Link, useSearchParams } from 'react-router';
import { useProjects } from '../api/projects.ts';

export { useProjects };

/** The project search param (`param`, default `project`) and its setter (other params stay; '' removes it). */
export function useProjectParam(param = 'project', reset: readonly string[] = []): [string, (id: string) => void] {
  const [params, setParams] = useSearchParams();
  const project = params.get(param) ?? '';
  const set = (id: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set(param, id);
        else next.delete(param);
        for (const k of reset) next.delete(k);
        return next;
      },
      { replace: true },
    );
  return [project, set];
}

/**
 * `allowAll`: offer "All projects" (the unfiltered list); without it the empty choice reads "Choose a project".
 * The selected id stays listed even when it is not among the loaded projects (a deep link to an unknown id).
 */
export function ProjectPicker(props: {
  allowAll?: boolean;
  label?: string;
  /** The search param it binds (default `project`). */
  param?: string;
  /** Params a new choice removes (a page offset). */
  reset?: readonly string[];
  onChange?: () => void;
}) {
  const [project, setProject] = useProjectParam(props.param, props.reset);
  const projects = useProjects();
  const list = projects.data?.projects ?? [];
  const known = list.some((p) => p.id === project);
  return (
    <label>
      {props.label ?? 'Project'}
      <select
        name={props.param ?? 'project'}
        value={project}
        onChange={(e) => {
          setProject(e.target.value);
          props.onChange?.();
        }}
      >
        <option value="">{props.allowAll === false ? 'Choose a project…' : 'All projects'}</option>
        {project && !known && (
          <option value={project}>{projects.isLoading ? 'Loading…' : `${project} (unknown)`}</option>
        )}
        {list.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A project's name from the loaded list, or its id while unknown. */
export function useProjectName(id: string | null | undefined): string {
  const projects = useProjects();
  if (!id) return '';
  return projects.data?.projects.find((p) => p.id === id)?.name ?? id;
}

/** A project id as a link named by the project, or "none" for a record without a project. */
export function ProjectCell(props: { id: string | null | undefined }) {
  const name = useProjectName(props.id);
  if (!props.id) return <span className="muted">none</span>;
  return <Link to={`/projects/${encodeURIComponent(props.id)}`}>{name}</Link>;
}
