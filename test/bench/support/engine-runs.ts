import { http, importBoard as importBoardWith, type Json } from '../../support/board-import.ts';
import { until } from './until.ts';

/** Imports the board the way the e2e test does, waiting on the queue with the bench's own poll. */
export const importBoard = (base: string, workspace: string, projectId: string): Promise<void> =>
  importBoardWith(base, workspace, projectId, (probe, what) => until(probe, { what, timeoutMs: 60_000 }));

/** One run over HTTP, every gate approved as soon as it is ready: wall time and each phase's own time (ms). */
export async function timedRun(
  base: string,
  flow: string,
  projectId: string,
  goal: string,
): Promise<{ total_ms: number; verdict: string; phases: [string, number][] }> {
  const t0 = performance.now();
  const run = await http(base, 'POST', '/v1/runs', { design_flow: flow, project_id: projectId, goal, start: true });
  if (run.status !== 201) throw new Error(`run not started: ${JSON.stringify(run.json)}`);
  const id = run.json.id as string;
  let approved = '';
  for (;;) {
    const view = await until(
      async () => {
        const v = (await http(base, 'GET', `/v1/runs/${id}`)).json;
        const open = v.gate?.ready && v.gate.phase !== approved;
        return v.status === 'completed' || open || ['failed', 'rejected', 'cancelled'].includes(v.status)
          ? v
          : undefined;
      },
      { what: `run ${id}`, timeoutMs: 600_000 },
    );
    if (!(view.gate?.ready && view.gate.phase !== approved)) {
      if (view.status !== 'completed')
        throw new Error(`run ${flow} ended ${view.status}: ${JSON.stringify(view.phases)}`);
      const total_ms = performance.now() - t0;
      const verdict = (await http(base, 'GET', `/v1/runs/${id}/lifecycle`)).json.verdict as string;
      const phases = (view.phases as Json[]).map(
        (p) => [p.id, Date.parse(p.finished_at) - Date.parse(p.started_at)] as [string, number],
      );
      return { total_ms, verdict, phases };
    }
    approved = view.gate.phase as string;
    const d = await http(base, 'POST', `/v1/runs/${id}/approval`, { decision: 'approve', reason: 'bench' });
    if (d.status !== 200) throw new Error(`approve refused at ${view.gate.phase}: ${JSON.stringify(d.json)}`);
  }
}
