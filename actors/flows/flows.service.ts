import type { ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { FlowsActions as F } from '../../contracts/actions/flows.actions.ts';
import { compileIntent } from './compile.ts';

/** The `flows` actor: stateless flow services, today the intent compiler. */
export function createFlowsService(): ServiceSchema {
  return {
    name: 'flows',
    actions: {
      compileIntent: action(F.compileIntent, (p) => compileIntent(p.request, p.context)),
    },
  };
}
