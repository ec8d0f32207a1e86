import type { ActionSchema, Context } from 'moleculer';
import { action, call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { RunFlowActions as F } from '../../contracts/actions/design-flows.actions.ts';
import { HarnessUsageActions as H } from '../../contracts/actions/harness-usage.actions.ts';
import type { FlowDef } from '../../contracts/flow-defs.ts';
import { capabilityReport, deliverableCapability } from './capabilities.ts';
import { capabilityInputs, registeredTools } from './capability-inputs.ts';
import { emptyUsageTotals, type UsageTotals } from '../../contracts/flows.ts';
import { flowState } from './flow-state.ts';
import { FLOW_IDS, FLOWS } from './flows/index.ts';
import { depsOf } from './graph.ts';
import { loadRunEvidence, runChanges } from './lifecycle.data.ts';
import { lifecycleView, type CapabilityGap } from './lifecycle.ts';
import { createPatchStore, type PatchStore } from './patch.store.ts';
import { patchActions } from './patch.actions.ts';
import { evaluateEvidence, lifecycleRowOf } from '../../contracts/requirement-verdicts.ts';
import { stateOf, type DesignFlowDeps } from './design-flow.deps.ts';

/** Capability gaps of a run's flow: deliverables not FULL, blocking when nobody can record them and the phase enforces them. */
function gapsOf(def: FlowDef, ids: string[]): CapabilityGap[] {
  const tools = new Set(ids);
  return def.phases.flatMap((p) =>
    p.required_deliverables
      .map((t) => deliverableCapability(t, tools))
      .filter((x) => x.capability !== 'FULL')
      .map((x) => ({
        phase: p.id,
        deliverable: x.type,
        capability: x.capability,
        blocking: x.capability === 'UNAVAILABLE' && p.enforce_deliverables,
      })),
  );
}

/**
 * A run's model usage: the harness's call ledger filtered by run (the harness owns it). Every model call goes through
 * the harness, so a topology that serves no harness made none: its usage is the empty total, not an error.
 */
async function runUsage(ctx: Context, run_id: string): Promise<UsageTotals> {
  if (!ctx.broker.registry.actions.isAvailable(H.runUsage.action)) return emptyUsageTotals();
  return call(ctx, H.runUsage, { run_id });
}

/**
 * Design-flow actions of the runs actor (`RunFlowActions`), spread into its `actions`: usage, flow state, the lifecycle
 * view with the completion verdict, the run's twin changes, capability reports, and (from patch.actions.ts) flow
 * patches and proposals.
 */
export function designFlowActions(d: DesignFlowDeps): Record<string, ActionSchema> {
  let patches: PatchStore | undefined;
  const patchStore = async () => (patches ??= createPatchStore(await d.infra.db()));
  return {
    flowCatalog: action(F.flowCatalog, () => ({
      flows: Object.values(FLOWS).map((f) => ({
        id: f.id,
        version: f.version,
        name: f.name,
        phases: f.phases.map((p) => ({
          id: p.id,
          title: p.title,
          objective: p.objective,
          required_deliverables: p.required_deliverables,
          depends_on: depsOf(f, p),
          condition: p.condition ?? null,
          gate: { name: p.gate.name, gate_id: p.gate.gate_id, enforce_constraints: p.gate.enforce_constraints },
        })),
      })),
    })),

    usage: action(F.usage, async (p, ctx) => {
      await stateOf(d, p.run_id);
      return runUsage(ctx, p.run_id);
    }),

    usageSummary: action(F.usageSummary, async (p) => {
      const until = d.infra.now();
      const since = new Date(until.getTime() - p.window_hours * 3_600_000);
      const db = await d.infra.db();
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM runs WHERE updated_at >= $1', [since]);
      return {
        window_hours: p.window_hours,
        since: since.toISOString(),
        until: until.toISOString(),
        runs: Number(rows[0].n),
        usage: emptyUsageTotals(),
      };
    }),

    flowState: action(F.flowState, async (p, ctx) => {
      const state = await stateOf(d, p.run_id);
      return flowState(state, await runUsage(ctx, p.run_id));
    }),

    lifecycle: action(F.lifecycle, async (p, ctx) => {
      const state = await stateOf(d, p.run_id);
      const limits: string[] = [];
      let evidence: Awaited<ReturnType<typeof loadRunEvidence>> | undefined;
      try {
        evidence = await loadRunEvidence(ctx, state);
        limits.push(...evidence.limits);
      } catch (err) {
        d.infra.log.warn({ run: p.run_id, err }, 'lifecycle: twin not readable');
        limits.push(`the twin could not be read (${(err as Error).message}): requirements and staleness are unknown`);
      }
      let gaps: CapabilityGap[] = [];
      try {
        const tools = await registeredTools(ctx);
        gaps = gapsOf(state.flow.definition, tools.ids);
        if (tools.unavailable.length) limits.push(`adapters not reachable: ${tools.unavailable.join(', ')}`);
      } catch (err) {
        limits.push(`the tool registry could not be read (${(err as Error).message}): capability gaps are unknown`);
      }
      // The run's stale entries (superseded items) are not evidence: only the selected current evidence is judged.
      const requirements = evidence
        ? evaluateEvidence({ ...evidence, stale: evidence.staleEvidence }).map(lifecycleRowOf)
        : [];
      return lifecycleView({
        state,
        requirements,
        stale: evidence?.stale ?? [],
        gaps,
        limits,
        evidenceRead: !!evidence,
      });
    }),

    changes: action(F.changes, async (p, ctx) => runChanges(ctx, await stateOf(d, p.run_id))),

    capabilities: action(F.capabilities, async (p, ctx) => {
      let def: FlowDef;
      let versionId: string | null = null;
      if (p.version_id) {
        const v = await (await patchStore()).version(p.version_id);
        if (!v) throw ActorError.notFound('flow version', p.version_id);
        def = v.definition;
        versionId = v.version_id;
      } else {
        // Own keys only: `valueOf` or `constructor` from the URL must not find Object.prototype's members (was a 500).
        const flow = p.flow && Object.hasOwn(FLOWS, p.flow) ? FLOWS[p.flow] : undefined;
        if (!flow)
          throw new ActorError(
            'NOT_FOUND',
            `design flow ${JSON.stringify(p.flow ?? '')} not found; valid: ${FLOW_IDS.join(', ')}`,
            { flow: p.flow ?? null, valid: FLOW_IDS },
          );
        def = flow;
      }
      return {
        flowId: def.id,
        versionId,
        profile: p.profile ?? null,
        report: capabilityReport(def, {
          ...(await capabilityInputs(ctx, def, d.handlers, p.profile)),
          brain: d.infra.config.SERVICE_PHASE_BRAIN,
        }),
      };
    }),

    ...patchActions(d, patchStore),
  };
}
