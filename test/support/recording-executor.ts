import type { PhaseExecutor } from '../../actors/runs/executor.ts';

/** A minimal STEP file: enough for `twin.commit_geometry` to store a cad_model file. */
const STEP = Buffer.from('ISO-10303-21;\nEND-ISO-10303-21;\n').toString('base64');

/**
 * Phase handlers that only write twin records: each phase records its required deliverables through the real tools
 * (as the run's service caller), so gates evaluate real rows and approvals commit real drafts. No engines, no model.
 */
export const recordingExecutor: PhaseExecutor = async (input) => {
  for (const type of input.phase.required_deliverables) {
    const out =
      type === 'cad_model'
        ? await input.callTool('twin.commit_geometry', { name: 'Part', step_base64: STEP })
        : type === 'constraint_set'
          ? await input.callTool('twin.record_constraint_set', {
              name: 'Limits',
              constraints: [{ metric: 'mass_kg', limit: 2, unit: 'kg' }],
            })
          : ['intent', 'stakeholder_need', 'objective'].includes(type)
            ? await input.callTool('twin.record_engineering_entity', {
                entity_type: type,
                name: `${type} of ${input.run_id}`,
              })
            : type === 'design_decision'
              ? await input.callTool('twin.record_decision', { title: `${input.phase.id} decision`, decision: 'go' })
              : await input.callTool('twin.record_document', { document_type: type, name: type, content: 'x' });
    if (out.status !== 'success') return { ok: false, kind: 'tool', message: JSON.stringify(out) };
  }
  return { ok: true, summary: `${input.phase.id} done`, deliverables: [] };
};
