import { describe, expect, it } from 'vitest';
import { decide, forViewer, type SourceItem } from '../../../actors/approvals/approval.machine.ts';
import type { Decider } from '../../../contracts/actions/approvals.actions.ts';

const person: Decider = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};
const agent: Decider = {
  approver: 'ann',
  approver_verified: false,
  surface: 'agent',
  on_behalf_of: 'ann',
  agent: 'copilot',
};
const env = { allowAgentHumanAuthority: false };

function gate(extra: Partial<SourceItem> = {}, detail: Record<string, unknown> = {}): SourceItem {
  return {
    id: 'gate:run_1',
    kind: 'gate',
    status: 'pending',
    title: 'Needs sign-off',
    summary: '',
    project_id: 'p',
    created_at: 't',
    deadline: null,
    route: 'dashboard',
    requested_by: null,
    reason_held: null,
    findings: [],
    allowed_decisions: ['approve', 'reject', 'retry', 'rework'],
    rework_targets: ['intent'],
    detail: { phase: 'needs', gate_name: 'Needs sign-off', ready: true, retries_left: 3, reworks_left: 3, ...detail },
    decision: null,
    blocked: null,
    source: { type: 'gate', run_id: 'run_1', gate_id: 'run_1:needs:1', gone: false, idems: [] },
    ...extra,
  };
}
const cmd = (decision: 'approve' | 'reject' | 'retry' | 'rework', reason = '', to_phase = '', decider = person) => ({
  decision,
  reason,
  to_phase,
  decider,
});
const refusal = (s: SourceItem, c: ReturnType<typeof cmd>, e = env) => {
  const out = decide(s, c, e);
  return 'refusal' in out ? out.refusal.code : 'ok';
};

describe('approval decision rules (pure)', () => {
  it('routes an accepted gate decision to the runs actor, naming the gate it decides', () => {
    expect(decide(gate(), cmd('approve'), env)).toEqual({
      effect: { type: 'runs.decide', run_id: 'run_1', gate_id: 'run_1:needs:1' },
    });
  });

  it('maps every refusal to its status code in the spec table order', () => {
    expect(refusal(gate({ status: 'approved' }), cmd('approve'))).toBe('CONFLICT');
    expect(refusal(gate({ blocked: 'asked in the client' }), cmd('approve'))).toBe('CONFLICT');
    expect(refusal(gate({ allowed_decisions: ['reject', 'retry'] }, { ready: false }), cmd('approve'))).toBe(
      'CONFLICT',
    );
    expect(refusal(gate({ allowed_decisions: ['approve', 'reject'] }, { retries_left: 0 }), cmd('retry', 'x'))).toBe(
      'CONFLICT',
    );
    expect(
      refusal(
        gate({ allowed_decisions: ['approve', 'reject', 'retry'], rework_targets: [] }, { reworks_left: 0 }),
        cmd('rework', 'x', 'intent'),
      ),
    ).toBe('CONFLICT');
    expect(refusal(gate(), cmd('reject'))).toBe('VALIDATION_FAILED');
    expect(refusal(gate(), cmd('rework', 'x', 'simulation'))).toBe('VALIDATION_FAILED');
    expect(refusal(gate({ kind: 'sketch', allowed_decisions: ['approve'] }), cmd('reject', 'x'))).toBe(
      'VALIDATION_FAILED',
    );
    expect(refusal(gate({ kind: 'design_loop', allowed_decisions: ['approve'] }), cmd('approve', '', '', agent))).toBe(
      'FORBIDDEN',
    );
    expect(
      refusal(gate({ kind: 'design_loop', allowed_decisions: ['approve'] }), cmd('approve', '', '', agent), {
        allowAgentHumanAuthority: true,
      }),
    ).toBe('ok');
    expect(
      refusal(
        gate({ kind: 'human_authority', allowed_decisions: ['approve', 'reject'] }),
        cmd('approve', '', '', { ...agent, surface: 'unknown' }),
      ),
    ).toBe('FORBIDDEN');
  });

  it('offers only reject once the workflow is gone, and saves it instead of signalling a run', () => {
    const gone = gate(
      {
        allowed_decisions: ['reject'],
        rework_targets: [],
        source: { type: 'gate', run_id: 'run_1', gate_id: 'g', gone: true, idems: [] },
      },
      { run_status: 'failed' },
    );
    expect(decide(gone, cmd('approve'), env)).toMatchObject({
      refusal: { code: 'CONFLICT', message: expect.stringContaining('no longer exists') },
    });
    expect(decide(gone, cmd('reject', 'stop'), env)).toEqual({
      effect: { type: 'save_gone_gate', run_id: 'run_1', gate_id: 'g' },
    });
  });

  it('computes decidable and its reason per viewer', () => {
    expect(forViewer(gate(), person, env)).toMatchObject({
      decidable: true,
      not_decidable_reason: null,
      reason_required_for: ['reject', 'retry', 'rework'],
    });
    expect(forViewer(gate({ status: 'rejected', allowed_decisions: [] }), person, env)).toMatchObject({
      decidable: false,
      not_decidable_reason: 'it is already decided (rejected)',
      reason_required_for: [],
    });
    const loop = gate({ kind: 'design_loop', allowed_decisions: ['approve'] });
    expect(forViewer(loop, agent, env).not_decidable_reason).toContain('SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY');
    expect(forViewer(loop, person, env).decidable).toBe(true);
    expect(forViewer(loop, undefined, env).decidable).toBe(true);
    expect(forViewer(gate(), person, env)).not.toHaveProperty('source');
  });
});
