import { call, type Caller } from '../../brokers/actions.ts';
import { RunFlowActions } from '../../contracts/actions/design-flows.actions.ts';
import { KnowledgeActions } from '../../contracts/actions/knowledge.actions.ts';
import { ProjectsActions } from '../../contracts/actions/projects.actions.ts';
import { RunsActions } from '../../contracts/actions/runs.actions.ts';
import { TwinViewActions } from '../../contracts/actions/twin-views.actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import type { Candidate } from './completion.ts';

/** How many rows a completion reads from one listing: enough to rank, bounded so a keystroke stays cheap. */
const READ_LIMIT = 1000;

/**
 * Where completion values come from: the real listings of the actors, read over the bus like every other MCP method.
 * Each gives ids with a human label (a name, title or goal) the typed text may also match.
 */
export function candidateSources(bus: Caller) {
  return {
    /** Project ids, newest first, labelled with the project's name. */
    async projects(): Promise<Candidate[]> {
      const { projects } = await call(bus, ProjectsActions.list, { limit: READ_LIMIT, offset: 0 });
      return projects.map((p) => ({ value: p.id, label: p.name }));
    },
    /** The built-in design flows (`mech_v1`, `hardware_v1`). */
    async flows(): Promise<Candidate[]> {
      const { flows } = await call(bus, RunFlowActions.flowCatalog, {});
      return flows.map((f) => ({ value: f.id, label: f.name }));
    },
    /** Keys of the items that have a head revision (in one project when given), labelled with the item's name. */
    async itemKeys(projectId?: string): Promise<Candidate[]> {
      const { items } = await call(bus, TwinActions.listItems, projectId ? { project_id: projectId } : {});
      return items.filter((i) => i.head_node_id).map((i) => ({ value: i.key, label: i.name }));
    },
    /** Simulation result node ids, newest first (in one project when given). */
    async simResults(projectId?: string): Promise<Candidate[]> {
      const { results } = await call(bus, TwinViewActions.simResults, {
        ...(projectId ? { project_id: projectId } : {}),
        limit: READ_LIMIT,
        offset: 0,
      });
      return results.map((r) => ({ value: r.id, label: r.name }));
    },
    /** Run ids, those waiting at a gate first, labelled with the goal (in one project when given). */
    async runs(projectId?: string): Promise<Candidate[]> {
      const { runs } = await call(bus, RunsActions.list, {
        ...(projectId ? { project_id: projectId } : {}),
        limit: 500,
      });
      const gated = runs.filter((r) => r.gate);
      const rest = runs.filter((r) => !r.gate);
      return [...gated, ...rest].map((r) => ({ value: r.id, label: r.goal }));
    },
    /** Knowledge source ids, newest first, labelled with the title. */
    async sources(): Promise<Candidate[]> {
      const { sources } = await call(bus, KnowledgeActions.listSources, { limit: READ_LIMIT, offset: 0 });
      return sources.map((s) => ({ value: s.id, label: s.title }));
    },
  };
}
/** The completion value sources of one node (built once per MCP server). */
export type CandidateSources = ReturnType<typeof candidateSources>;
