import type { ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import type { Infra } from '../../brokers/infra.ts';
import { GatesActions as G } from '../../contracts/actions/runs.actions.ts';
import { deliverableFindings } from './gate-checks.ts';
import { constraintFindings, runVerdicts } from './gate-constraints.ts';
import { modelFindings } from './gate-model.ts';

/**
 * The `gates` actor: a gate's readiness and findings from deterministic checks over the twin (required deliverables
 * recorded since the phase started; constraints against the latest valid result of the current geometry), read through
 * the twin's query actions; it owns no table. With an explicit gate_check route the model may add findings after them
 * (gate-model.ts: tagged `model`, never blocking); readiness is the deterministic findings' alone. Decisions are events
 * on the run's own log (runs actor).
 */
export function createGatesService(infra?: Infra): ServiceSchema {
  return {
    name: 'gates',
    actions: {
      evaluate: action(G.evaluate, async (p, ctx) => {
        const checked = [
          ...(await deliverableFindings(ctx, p)),
          ...(p.enforce_constraints ? await constraintFindings(ctx, p.project_id, p.run_id) : []),
        ];
        const blocking = checked.filter((f) => f.severity === 'error');
        const added = await modelFindings(ctx, p, checked, infra?.log ?? ctx.broker.logger);
        return { findings: [...checked, ...added], ready: blocking.length === 0 };
      }),
      verdicts: action(G.verdicts, async (p, ctx) => ({ verdicts: await runVerdicts(ctx, p.project_id, p.run_id) })),
    },
  };
}
