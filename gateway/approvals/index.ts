export { approvalAuthFor, loadApprovalAuth, TokenFileSchema } from './auth.ts';
export type { ApprovalAuth, AuthResult } from './auth.ts';
export { decideViaQueue, IDENTITY_FIELDS, logIgnoredIdentity, viewerOf } from './decide.ts';
export type { DecisionRequest } from './decide.ts';
export { approvalHeaders, LOCAL_DASHBOARD, LOCAL_ELICITATION, resolveDecider } from './identity.ts';
export type { ApprovalHeaders, DecisionRoute, IdentityRefusal } from './identity.ts';
