export { createHoldsService } from './holds.service.ts';
export { HoldsInternal, HOLD_SETTLED_EVENT, HoldSettledSchema } from './holds.contract.ts';
export {
  approvalIdOf,
  ledgerIdOf,
  decide,
  holdWindow,
  newFiled,
  newHeldCall,
  orphanMessage,
  progressDue,
} from './hold.machine.ts';
export type { HoldCommand, HoldEnv, HoldState } from './hold.machine.ts';
export { outcomeOf } from './hold.outcome.ts';
export { answerToCommand, questionOf } from './hold.elicitation.ts';
