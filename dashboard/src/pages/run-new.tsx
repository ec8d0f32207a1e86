/**
 * /runs/new: start a design-flow run. Pick the flow and a project (or create one), write the request in words,
 * preview the compiled intent with its blocking unknowns (`POST /v1/design-flows/intent`), then start
 * (`POST /v1/runs` with `start: true`) and open the run. Other runs' items the run should revise (`revise`, decision
 * 0100) are listed with their owners before the start; a refused key (422) shows the server's message.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DESIGN_FLOWS, compileIntent, startRun, type CompiledIntent } from '../api/runs.ts';
import { createProject, useProjects } from '../api/projects.ts';
import { ErrorNote, Page } from '../ui/common.tsx';
import { IntentPreview } from './run-new-intent.tsx';
import { ReviseField, RevisePlan } from './run-revise.tsx';
import { parseReviseKeys } from './run-revise-keys.ts';
import { Section } from '../ui/section.tsx';

interface Preview {
  request: string;
  flow: string;
  intent: CompiledIntent;
}

export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const projects = useProjects();
  const [flow, setFlow] = useState<string>(params.get('flow') ?? 'mech_v1');
  const [projectId, setProjectId] = useState(params.get('project_id') ?? '');
  const [newName, setNewName] = useState('');
  const [request, setRequest] = useState('');
  const [reviseText, setReviseText] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);

  const create = useMutation({
    mutationFn: createProject,
    onSuccess: (p) => {
      setProjectId(p.id);
      setNewName('');
      void client.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const compile = useMutation({
    mutationFn: (v: { request: string; flow: string }) => compileIntent(v.request, v.flow),
    onSuccess: (intent, v) => setPreview({ ...v, intent }),
  });
  const start = useMutation({
    mutationFn: startRun,
    onSuccess: (run) => {
      void client.invalidateQueries({ queryKey: ['runs'] });
      void navigate(`/runs/${run.id}`);
    },
  });

  const text = request.trim();
  const revise = parseReviseKeys(reviseText);
  const current = preview && preview.request === text && preview.flow === flow ? preview : null;
  const onPreview = (e: FormEvent) => {
    e.preventDefault();
    if (text) compile.mutate({ request: text, flow });
  };
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (newName.trim()) create.mutate(newName.trim());
  };
  const projectList = projects.data?.projects ?? [];

  return (
    <Page title="New run">
      <Section id="project-h" panel title="Project">
        <form className="toolbar" onSubmit={onCreate} aria-label="Create a project">
          <label>
            Run in project
            <select name="project" value={projectId} onChange={(e) => setProjectId(e.target.value)}>
              <option value="">Choose a project…</option>
              {projectList.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <span className="muted">or</span>
          <label>
            New project name
            <input name="new-project" value={newName} onChange={(e) => setNewName(e.target.value)} size={30} />
          </label>
          <button type="submit" disabled={!newName.trim() || create.isPending}>
            Create project
          </button>
        </form>
        <ErrorNote error={projects.error} prefix="Projects could not be read" />
        <ErrorNote error={create.error} prefix="The project was not created" />
      </Section>

      <form id="run-form" className="panel" onSubmit={onPreview} aria-labelledby="request-h" style={{ marginTop: 8 }}>
        <h2 id="request-h">Request</h2>
        <div className="toolbar">
          <label>
            Design flow
            <select name="design_flow" value={flow} onChange={(e) => setFlow(e.target.value)}>
              {DESIGN_FLOWS.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label style={{ display: 'flex' }}>
          What to design, in words
          <textarea
            name="request"
            rows={4}
            value={request}
            maxLength={20_000}
            onChange={(e) => setRequest(e.target.value)}
            placeholder="a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2"
          />
        </label>
        <ReviseField value={reviseText} onChange={setReviseText} />
        <div className="toolbar">
          <button type="submit" disabled={!text || compile.isPending}>
            {compile.isPending ? 'Compiling…' : 'Preview intent'}
          </button>
          <button
            type="button"
            className="primary"
            disabled={!current || !projectId || start.isPending}
            onClick={() => start.mutate({ design_flow: flow, project_id: projectId, goal: text, revise })}
          >
            {start.isPending ? 'Starting…' : 'Start run'}
          </button>
          {!current && text && <span className="muted">Preview the intent of this text first.</span>}
          {current && !projectId && <span className="muted">Choose or create a project first.</span>}
        </div>
        <ErrorNote error={compile.error} prefix="The intent could not be compiled" />
        <ErrorNote error={start.error} prefix="The run did not start" />
      </form>
      {current && <RevisePlan keys={revise} />}
      {current && <IntentPreview intent={current.intent} />}
    </Page>
  );
}
