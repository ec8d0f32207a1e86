/** The hold policy lives in brokers/ so the harness (model tool calls) knows which calls a person must approve. */
export { decideHold, type HoldDecision, type HoldPolicyOptions } from '../../brokers/hold-policy.ts';
