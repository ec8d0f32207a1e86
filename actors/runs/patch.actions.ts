import crypto from 'node:crypto';
import type { ActionSchema, Context } from 'moleculer';
import { z } from 'zod';
import { action, call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { HoldsActions } from '../../contracts/actions/approvals.actions.ts';
import { RunFlowActions as F } from '../../contracts/actions/design-flows.actions.ts';
import type { FlowOperation } from '../../contracts/design-flows.ts';
import { toValidationIssues } from '../../contracts/errors.ts';
import type { FlowDef } from '../../contracts/flow-defs.ts';
import type { AppliedPatchView } from '../../contracts/flows.ts';
import { ConditionError } from './condition.ts';
import { stateOf, type DesignFlowDeps } from './design-flow.deps.ts';
import { generateOperations } from './flow-generator.ts';
import { FLOWS, freezeFlow } from './flows/index.ts';
import type { PatchRow, PatchStore } from './patch.store.ts';
import { affectedPhases, applyOperations, movedPast, PatchError } from './patches.ts';
import { emptyRun } from './run.events.ts';
import { runView, startedOf } from './run.view.ts';

/** Builds the patched flow, turning every way the operations can be wrong into a 422 naming what (and where) it is. */
function buildFlow(def: FlowDef, ops: FlowOperation[]): FlowDef {
  try {
    return applyOperations(def, ops);
  } catch (err) {
    if (err instanceof ConditionError) {
      // validateFlow wraps the parser's error once more: keep one "condition does not parse at position N".
      const message = err.message.replace(/^condition does not parse at position \d+: (?=phase )/, '');
      throw new ActorError('VALIDATION_FAILED', message, {
        position: err.position,
        issues: [{ path: 'operations', message }],
      });
    }
    if (err instanceof PatchError)
      throw new ActorError('VALIDATION_FAILED', err.message, {
        ...err.details,
        issues: [{ path: 'operations', message: err.message }],
      });
    if (err instanceof z.ZodError)
      throw ActorError.validation(
        toValidationIssues(err),
        `the patched flow is not valid: ${err.issues.map((i) => i.message).join('; ')}`,
      );
    if (err instanceof Error)
      throw new ActorError('VALIDATION_FAILED', err.message, {
        issues: [{ path: 'operations', message: err.message }],
      });
    throw err;
  }
}

/**
 * Files the approval a person gives in the approvals queue (a `tool:` ledger record of kind flow_patch or
 * flow_version; the queue writes the decision back into flow_patches / flow_proposals). A ledger that cannot be
 * reached is logged: the patch or proposal stays saved and pending.
 */
async function fileApproval(
  ctx: Context,
  d: DesignFlowDeps,
  p: { kind: 'flow_patch' | 'flow_version'; title: string; detail: Record<string, unknown>; project_id: string | null },
): Promise<void> {
  await call(ctx, HoldsActions.file, {
    kind: p.kind,
    title: p.title,
    detail: p.detail,
    project_id: p.project_id,
    requested_by: 'design flows',
  }).catch((err: unknown) =>
    d.infra.log.warn(
      { kind: p.kind, detail: p.detail, err: (err as Error).message },
      'flow approval not filed in the approvals queue',
    ),
  );
}

const patchView = (r: PatchRow, nextStep: string) => ({
  run_id: r.run_id,
  version: r.version,
  version_id: r.version_id,
  content_hash: r.content_hash,
  base_hash: r.base_hash,
  status: r.status,
  reason: r.reason,
  affected: r.affected,
  approval: { kind: 'flow_patch' as const, status: r.status },
  created_at: r.created_at.toISOString(),
  nextStep,
});

/**
 * Flow patches (a run's flow changed in flight) and flow proposals (a tailored flow to start runs on). Both freeze a
 * new version and wait for a person: apply and start are refused until the approval (status in flow_patches /
 * flow_proposals) says approved. A patch is stale when the run's flow moved on or the run moved past a patched phase.
 */
export function patchActions(d: DesignFlowDeps, patchStore: () => Promise<PatchStore>): Record<string, ActionSchema> {
  return {
    proposePatch: action(F.proposePatch, async (p, ctx) => {
      const s = await stateOf(d, p.run_id);
      if (['completed', 'failed', 'rejected', 'cancelled'].includes(s.status))
        throw new ActorError('CONFLICT', `run ${s.id} has ended (${s.status}): its flow cannot be patched`);
      const base = p.base_hash ?? s.flow.content_hash;
      if (base !== s.flow.content_hash)
        throw new ActorError(
          'CONFLICT',
          `stale: the patch was written against ${base.slice(0, 12)}, the run's flow is now ${s.flow.content_hash.slice(0, 12)}`,
          { current_hash: s.flow.content_hash },
        );
      const def = buildFlow(s.flow.definition, p.operations);
      const affected = affectedPhases(s.flow.definition, def);
      if (!affected.length)
        throw new ActorError('VALIDATION_FAILED', 'the patch changes nothing', {
          issues: [{ path: 'operations', message: 'no phase changes' }],
        });
      const past = movedPast(s, affected);
      if (past.length)
        throw new ActorError('CONFLICT', `stale: the run moved past ${past.join(', ')}`, { phases: past });
      const frozen = freezeFlow(def, s.flow.facts);
      await d.store().saveVersion(frozen);
      const row = await (
        await patchStore()
      ).insertPatch(
        {
          run_id: s.id,
          version_id: frozen.version_id,
          base_hash: base,
          content_hash: frozen.content_hash,
          operations: p.operations,
          affected,
          reason: p.reason,
        },
        d.infra.now(),
      );
      await fileApproval(ctx, d, {
        kind: 'flow_patch',
        title: `Flow patch ${row.version} of run ${s.id}`,
        detail: {
          run_id: s.id,
          version: row.version,
          version_id: row.version_id,
          affected,
          reason: p.reason,
          operations: p.operations,
        },
        project_id: s.project_id,
      });
      return patchView(
        row,
        `A person approves patch ${row.version} (kind flow_patch) in the approvals queue; then POST /v1/runs/${s.id}/patches/${row.version}/apply.`,
      );
    }),

    applyPatch: action(F.applyPatch, async (p, ctx): Promise<AppliedPatchView> => {
      const fwd = await d.forward(ctx, F.applyPatch.action, p.run_id);
      if (fwd) return fwd as AppliedPatchView;
      const store = await patchStore();
      const row = await store.patch(p.run_id, p.version);
      if (!row) throw ActorError.notFound('patch', `${p.run_id}/${p.version}`);
      const view = (rerun: string[]) => ({
        runId: row.run_id,
        versionId: row.version_id,
        rerun,
        nextStep: rerun.length
          ? `Phases ${rerun.join(', ')} re-run on the patched flow; their gates open when they finish.`
          : 'The run continues on the patched flow; changed phases run when their dependencies are approved.',
      });
      if (row.status === 'applied') return view(row.rerun);
      if (row.status !== 'approved') {
        const why =
          row.status === 'pending'
            ? 'not approved: a person approves flow patches (kind flow_patch) before they apply'
            : `${row.status}${row.status_reason ? ` (${row.status_reason})` : ''}`;
        throw new ActorError('CONFLICT', `patch ${row.version} of run ${row.run_id} is ${why}`, { status: row.status });
      }
      const flow = await store.version(row.version_id);
      if (!flow) throw ActorError.notFound('flow version', row.version_id);
      const out = await d.host().command(row.run_id, {
        type: 'patchFlow',
        flow,
        base_hash: row.base_hash,
        affected: row.affected,
        note: `PATCH ${row.version}: ${row.reason || 'flow patched'}`,
      });
      if (out.refusal) {
        if (out.refusal.message.startsWith('stale'))
          await store.settlePatch(row.run_id, row.version, 'stale', { reason: out.refusal.message }, d.infra.now());
        throw new ActorError(out.refusal.code, out.refusal.message);
      }
      const rerun = out.events.flatMap((e) => (e.type === 'FlowPatched' ? e.rerun : []));
      await store.settlePatch(row.run_id, row.version, 'applied', { rerun }, d.infra.now());
      return view(rerun);
    }),

    proposeFlow: action(F.proposeFlow, async (given, ctx) => {
      // From a request with no operations: the flow_generator model's operations, checked, else none (with a note).
      const gen =
        given.request && !given.operations.length
          ? await generateOperations(ctx, FLOWS[given.base_flow], given.request, d.infra.log, given.principal ?? null)
          : null;
      const p = gen ? { ...given, operations: gen.operations, reason: given.reason || gen.reason } : given;
      const def = p.operations.length ? buildFlow(FLOWS[p.base_flow], p.operations) : FLOWS[p.base_flow];
      const frozen = freezeFlow(def, p.facts);
      await d.store().saveVersion(frozen);
      const now = d.infra.now();
      const row = await (
        await patchStore()
      ).insertProposal(
        { version_id: frozen.version_id, flow_id: frozen.flow_id, operations: p.operations, reason: p.reason },
        now,
      );
      if (row.created_at.getTime() === now.getTime()) {
        await fileApproval(ctx, d, {
          kind: 'flow_version',
          title: `Flow version ${frozen.version_id} (${frozen.flow_id})`,
          detail: {
            version_id: frozen.version_id,
            flow_id: frozen.flow_id,
            reason: p.reason,
            operations: p.operations,
            ...(gen ? { request: p.request, note: gen.note } : {}),
          },
          project_id: null,
        });
      }
      return {
        ...(gen ? { note: gen.note } : {}),
        version_id: frozen.version_id,
        flow_id: frozen.flow_id,
        content_hash: frozen.content_hash,
        phases: def.phases.map((x) => x.id),
        status: row.status,
        approval: { kind: 'flow_version' as const, status: row.status },
        nextStep:
          row.status === 'approved'
            ? `Start a run on it with flow.start_run version_id ${frozen.version_id}.`
            : `A person approves version ${frozen.version_id} (kind flow_version); then start a run on it with flow.start_run.`,
      };
    }),

    startVersion: action(F.startVersion, async (p) => {
      const store = await patchStore();
      const proposal = await store.proposal(p.version_id);
      if (!proposal) throw ActorError.notFound('flow proposal', p.version_id);
      if (proposal.status !== 'approved')
        throw new ActorError(
          'CONFLICT',
          `flow version ${p.version_id} is ${proposal.status === 'pending' ? 'not approved yet' : proposal.status}: a run starts only on an approved version`,
          { status: proposal.status },
        );
      const flow = (await store.version(p.version_id))!;
      const runId = `run_${crypto.randomUUID()}`;
      const request = { goal: p.goal, context: p.context, ...startedOf(p) };
      const epoch = await d.store().create(
        {
          id: runId,
          project_id: p.project_id ?? null,
          design_flow: flow.flow_id,
          version_id: flow.version_id,
          request,
          state: emptyRun(),
        },
        d.infra.now(),
      );
      const out = await d
        .host()
        .create(
          runId,
          epoch,
          { type: 'create', run_id: runId, project_id: p.project_id ?? null, flow, patches: d.activePatches },
          emptyRun(),
        );
      return runView(out.state, request, d.limits);
    }),
  };
}
