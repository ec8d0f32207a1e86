import type { ServiceConfig } from '../../brokers/config.ts';
import type { Caller } from '../../contracts/actions/adapters.actions.ts';
import { principalHas, type Principal } from '../../contracts/principal.ts';
import { isLoopback } from '../plugins/host-check.ts';
import type { McpSession } from './session-store.ts';

/** Whose answer a decision asked in the client is (the caller's `decision_elicitation`). */
export type DecisionElicitation = NonNullable<Caller['decision_elicitation']>;

/** The approver of an answer given in an MCP client that carries no verified person (SPEC Gateway rule 2). */
export const LOCAL_ELICITATION = 'local:elicitation';

/** What the gateway decides with: SERVICE_ELICITATION_APPROVALS, whether any authentication is on, the bind. */
export interface ElicitationPolicy {
  mode: ServiceConfig['SERVICE_ELICITATION_APPROVALS'];
  /** SERVICE_MCP_API_KEY and/or SERVICE_AUTH_TOKENS_PATH set: the node expects more than one client or person. */
  authOn: boolean;
  /** The gateway listens on a loopback address only. */
  loopback: boolean;
}

type PolicyConfig = Pick<
  ServiceConfig,
  'SERVICE_ELICITATION_APPROVALS' | 'SERVICE_MCP_API_KEY' | 'SERVICE_AUTH_TOKENS_PATH' | 'SERVICE_HOST'
> &
  Partial<Pick<ServiceConfig, 'SERVICE_OAUTH_ISSUER'>>;

/** The policy of this gateway's configuration. */
export function elicitationPolicyOf(config: PolicyConfig): ElicitationPolicy {
  return {
    mode: config.SERVICE_ELICITATION_APPROVALS,
    authOn:
      config.SERVICE_MCP_API_KEY !== undefined ||
      config.SERVICE_AUTH_TOKENS_PATH !== undefined ||
      config.SERVICE_OAUTH_ISSUER !== undefined,
    loopback: isLoopback(config.SERVICE_HOST),
  };
}

/**
 * May a person's decision (a held call, a gate) be asked in this session's client, and whose answer is it (pure;
 * docs/decisions/0020-elicitation-approvals.md)? No client approves its own call: an answer is a person's decision
 * only when the session belongs to a verified person, and no MCP session does yet (one shared key, no per-person
 * identity). So `off` never asks; `verified` asks only where the one client is the person at the keyboard (no
 * authentication at all, and a loopback bind or stdio), recorded as `local:elicitation` unverified; `any` always asks
 * (unverified). Undefined = the decision goes to the Approvals queue.
 */
export function decisionElicitation(
  policy: ElicitationPolicy,
  session: Pick<McpSession, 'can_elicit'> | undefined,
  transport: 'http' | 'sse' | 'stdio',
  principal?: Principal,
): DecisionElicitation | undefined {
  if (!session?.can_elicit || policy.mode === 'off') return undefined;
  // An OAuth session (decision 0113): its answer is a verified decision only for a person holding approvals:decide.
  if (principal && principalHas(principal, 'approvals:decide'))
    return { approver: principal.subject, verified: true, client_id: principal.client_id ?? null };
  if (principal && policy.mode === 'verified') return undefined;
  const local = { approver: LOCAL_ELICITATION, verified: false };
  if (policy.mode === 'any') return local;
  if (policy.authOn) return undefined;
  return transport === 'stdio' || policy.loopback ? local : undefined;
}
