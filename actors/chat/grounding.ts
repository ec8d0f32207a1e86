/**
 * The grounding guard (SPEC "Chat and harness rules" 7) lives in `contracts/grounding.ts`: it is shared by chat's turns
 * and the runs actor's model-driven phases (a phase reply with completion wording and no successful tool call is
 * ungrounded), and an actor never imports another actor's modules.
 */
export * from '../../contracts/grounding.ts';
