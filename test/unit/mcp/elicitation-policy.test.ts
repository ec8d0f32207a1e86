import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../brokers/config.ts';
import { decisionElicitation, elicitationPolicyOf } from '../../../gateway/mcp/elicitation-policy.ts';

const LOCAL = { approver: 'local:elicitation', verified: false };
const elicits = { can_elicit: true };
const policy = (env: Record<string, string>) => elicitationPolicyOf(loadConfig(env));

describe('SERVICE_ELICITATION_APPROVALS: when a decision is asked in the MCP client (docs/decisions/0020)', () => {
  it('defaults to verified: no authentication and a loopback bind or stdio asks the local person, unverified', () => {
    expect(loadConfig({}).SERVICE_ELICITATION_APPROVALS).toBe('verified');
    expect(decisionElicitation(policy({}), elicits, 'http')).toEqual(LOCAL);
    expect(decisionElicitation(policy({ SERVICE_HOST: '0.0.0.0' }), elicits, 'stdio')).toEqual(LOCAL);
  });

  it('never asks under verified when authentication is on (shared key or approval tokens) or the bind is not loopback', () => {
    const envs: Record<string, string>[] = [
      { SERVICE_MCP_API_KEY: 'k' },
      { SERVICE_AUTH_TOKENS_PATH: '/nonexistent/tokens.json' },
      { SERVICE_MCP_API_KEY: 'k', SERVICE_AUTH_TOKENS_PATH: '/nonexistent/tokens.json' },
      { SERVICE_HOST: '0.0.0.0' },
    ];
    for (const env of envs) {
      for (const transport of ['http', 'sse', 'stdio'] as const)
        if (env.SERVICE_HOST === undefined || transport !== 'stdio')
          expect(
            decisionElicitation(policy(env), elicits, transport),
            JSON.stringify([env, transport]),
          ).toBeUndefined();
    }
  });

  it('off never asks; any always asks (unverified); a session that declared no elicitation is never asked', () => {
    expect(decisionElicitation(policy({ SERVICE_ELICITATION_APPROVALS: 'off' }), elicits, 'stdio')).toBeUndefined();
    expect(
      decisionElicitation(
        policy({ SERVICE_ELICITATION_APPROVALS: 'any', SERVICE_MCP_API_KEY: 'k', SERVICE_HOST: '0.0.0.0' }),
        elicits,
        'http',
      ),
    ).toEqual(LOCAL);
    expect(decisionElicitation(policy({ SERVICE_ELICITATION_APPROVALS: 'any' }), { can_elicit: false }, 'http')).toBe(
      undefined,
    );
    expect(decisionElicitation(policy({}), undefined, 'http')).toBeUndefined();
    expect(() => loadConfig({ SERVICE_ELICITATION_APPROVALS: 'sometimes' })).toThrow(/SERVICE_ELICITATION_APPROVALS/);
  });
});
