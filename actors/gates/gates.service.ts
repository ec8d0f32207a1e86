import type { ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { GatesActions as G } from '../../contracts/actions/runs.actions.ts';
import { deliverableFindings } from './gate-checks.ts';
import { constraintFindings } from './gate-constraints.ts';

/**
 * The `gates` actor: a gate's readiness and findings from deterministic checks over the twin (required deliverables
 * recorded since the phase started; constraints against the latest valid result of the current geometry), read through
 * the twin's query actions; it owns no table. Decisions are events on the run's own log (runs actor).
 */
export function createGatesService(): ServiceSchema {
  return {
    name: 'gates',
    actions: {
      evaluate: action(G.evaluate, async (p, ctx) => {
        const findings = [
          ...(await deliverableFindings(ctx, p)),
          ...(p.enforce_constraints ? await constraintFindings(ctx, p.project_id, p.run_id) : []),
        ];
        const blocking = findings.filter((f) => f.severity === 'error');
        return { findings, ready: blocking.length === 0 };
      }),
    },
  };
}
