import { describe, expect, it } from 'vitest';
import { evaluatePromotion, type ClaimState } from '../../../actors/approvals/promotion.ts';
import { AttemptPromotionRequestSchema } from '../../../contracts/approvals.ts';
import { bestOf, DesignLoopSpecSchema, numberAt, withPath } from '../../../contracts/design-loops.ts';

const req = (extra: Record<string, unknown> = {}) =>
  AttemptPromotionRequestSchema.parse({ projectId: 'p', level: 'L2', requiredClaimIds: [], ...extra });
const claim = (id: string, status: string, verified_by: string[] = [], stale_evidence: string[] = []): ClaimState => ({
  id,
  status,
  verified_by,
  stale_evidence,
});

describe('promotion criteria (pure)', () => {
  const claims = [claim('CS-1:A', 'verified', ['r1', 'r2']), claim('CS-1:B', 'waived'), claim('CS-1:C', 'unverified')];
  const project = { claims, required: ['CS-1:A', 'CS-1:B'] };

  it('promotes on the required claims verified or waived, and names every failing one otherwise', () => {
    expect(evaluatePromotion(req(), project, null)).toMatchObject({ promoted: true, blockedReason: null });
    const named = evaluatePromotion(req({ requiredClaimIds: ['CS-1:A', 'CS-1:C', 'X'] }), project, null);
    expect(named.promoted).toBe(false);
    expect(named.results.map((r) => r.met)).toEqual([true, false, false]);
    expect(named.blockedReason).toBe('CS-1:C is unverified; X is not a requirement of this project');
  });

  it('needs k current evidence items per claim, and blocks on stale evidence even when waived', () => {
    expect(evaluatePromotion(req({ k: 3 }), project, null).blockedReason).toBe(
      'CS-1:A is verified by 2 evidence item(s), 3 required',
    );
    const stale = { claims: [claim('S', 'stale', [], ['r0'])], required: ['S'] };
    expect(evaluatePromotion(req(), stale, null).blockedReason).toContain('S has stale evidence (r0)');
  });

  it('blocks on every gate of the run that is not approved or skipped, on reject, and on a project with no requirements', () => {
    const run = {
      id: 'run-1',
      phases: [
        { id: 'intent', status: 'approved' },
        { id: 'design', status: 'awaiting_gate' },
        { id: 'docs', status: 'skipped' },
      ],
    };
    expect(evaluatePromotion(req(), project, run).blockedReason).toBe(
      'gate of phase design of run run-1 is not approved (awaiting_gate)',
    );
    expect(evaluatePromotion(req({ reject: true }), project, null).promoted).toBe(false);
    expect(evaluatePromotion(req(), { claims: [], required: [] }, null).blockedReason).toBe(
      'the project has no requirements to promote on',
    );
  });
});

describe('design loop spec (pure)', () => {
  it('sets the candidate on a copy, reads only own finite numbers, and picks the best by goal', () => {
    const args = { parameters: { height: 1 } };
    expect(withPath(args, 'parameters.height', 4)).toEqual({ parameters: { height: 4 } });
    expect(args.parameters.height).toBe(1);
    expect(withPath({}, 'a.b', 2)).toEqual({ a: { b: 2 } });
    expect(numberAt({ a: { b: 3 } }, 'a.b')).toBe(3);
    expect(numberAt({ a: { b: 'x' } }, 'a.b')).toBeNull();
    expect(numberAt({ a: Number.NaN }, 'a')).toBeNull();
    expect(numberAt({}, 'toString')).toBeNull();
    expect(bestOf([400, null, 200, 200], 'minimize')).toBe(2);
    expect(bestOf([400, 600], 'maximize')).toBe(1);
    expect(bestOf([null], 'minimize')).toBe(-1);
  });

  it('refuses tools that write, prototype paths and empty candidates', () => {
    const ok = {
      tool: 'solver.run_fea',
      arguments: {},
      parameter: 'load_force_n',
      candidates: [1],
      metric: 'max_von_mises_mpa',
      goal: 'minimize',
    };
    expect(DesignLoopSpecSchema.safeParse(ok).success).toBe(true);
    for (const bad of [
      { ...ok, tool: 'twin.commit_geometry' },
      { ...ok, tool: 'cadscript.execute_script' },
      { ...ok, parameter: 'a.constructor.b' },
      { ...ok, metric: 'a[0]' },
      { ...ok, candidates: [] },
    ])
      expect(DesignLoopSpecSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
