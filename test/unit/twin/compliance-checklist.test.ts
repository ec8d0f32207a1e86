import { describe, expect, it } from 'vitest';
import type { GeometryPin } from '../../../actors/twin/compliance/index.ts';
import { GEOM_1, GEOM_2, at, head, record, stressSet, fea, pins, run, only } from '../../support/compliance-rows.ts';

// The pure compliance evaluation (actors/twin/compliance/*.rules.ts): hostile and stale cases first. Inputs are the
// rows the twin's reads answer, written inline per test.

describe('hostile input', () => {
  it('a project with no requirements: an empty checklist, 0 % coverage, every count zero', () => {
    const r = run({});
    expect(r.checklist).toMatchObject({
      total_items: 0,
      evidenced_items: 0,
      coverage_percent: 0,
      items: [],
      packs: [],
    });
    expect(r.checklist.target_markets).toEqual([]);
    expect(r.checklist.prd).toBeNull();
    expect(r.coverage.by_status.verified).toEqual({ count: 0, percent: 0 });
    expect(r.coverage.by_method.analysis).toMatchObject({ total_items: 0, coverage_percent: 0 });
    expect(r.evidence).toEqual({ project_id: 'p1', total: 0, items: [] });
  });

  it('survives malformed stored data: no constraints list, odd entries, bad JSON content, odd pins and waivers', () => {
    const r = run({
      heads: [
        head({ key: 'CS-A-AAAA', item_type: 'constraint_set', properties: { constraints: 'none', waivers: 7 } }),
        head({
          key: 'CS-B-AAAA',
          item_type: 'constraint_set',
          properties: {
            constraints: [null, 3, { metric: 'x', limit: 'ten' }, { limit: Infinity }],
            waivers: [null, {}],
          },
        }),
        head({ key: 'PRD-P-AAAA', item_type: 'prd', properties: { requirement_refs: [1, 'CS-B-AAAA@1'] } }),
      ],
      records: [
        record({ node_type: 'simulation_result', properties: { analysed_geometry: 'CAD-X@1', max_von_mises_mpa: 1 } }),
        record({ node_type: 'test_result', properties: { content: '{"x": ' } }),
        record({ node_type: 'design_decision', properties: { depends_on: [null, 'CS-B-AAAA'] } }),
      ],
      pins: [{ node_id: GEOM_1, item_key: null, revision: null, head_revision: null, head_node_id: null }],
    });
    expect(r.checklist.items.map((i) => i.status)).toEqual(['unverified', 'unverified']);
    expect(r.checklist.items[0].note).toMatch(/no numeric limit/);
    expect(r.evidence.items.find((e) => e.kind === 'simulation_result')).toMatchObject({ verifies: [] });
  });

  it('a result that pins no geometry (a bare number) verifies nothing and says so', () => {
    const item = only({
      heads: [stressSet(125)],
      records: [record({ node_type: 'simulation_result', properties: { max_von_mises_mpa: 60 } })],
    });
    expect(item.status).toBe('unverified');
    const { evidence } = run({
      records: [record({ node_type: 'simulation_result', properties: { max_von_mises_mpa: 60 } })],
    });
    expect(evidence.items[0].note).toMatch(/pins no geometry revision/);
  });
});

describe('requirements against simulation results', () => {
  it('verified: the FEA result of the current geometry revision meets the stress limit', () => {
    const r = fea(60.2);
    const item = only({ heads: [stressSet(125)], records: [r], pins: pins() });
    expect(item).toMatchObject({
      ref: 'CS-REQ-AAAA:REQ-STRESS',
      source: 'requirement',
      status: 'verified',
      evidenced: true,
      value: 60.2,
      verification_method: 'analysis',
      discipline: 'mechanical',
      mandatory: true,
    });
    expect(item.evidence[0]).toMatchObject({
      node_id: r.id,
      kind: 'simulation_result',
      analysed_ref: 'CAD-BEAM-AAAA@1',
      stale: false,
    });
    expect(item.note).toMatch(/gives 60.2 MPa: meets max_von_mises_mpa <= 125 MPa/);
  });

  it('stale, never verified: the result analysed a geometry revision that is no longer the head', () => {
    const r = fea(60.2);
    const out = run({ heads: [stressSet(125)], records: [r], pins: pins(true) });
    const item = out.checklist.items[0];
    expect(item).toMatchObject({ status: 'stale', evidenced: false, value: null });
    expect(item.note).toMatch(/analysed CAD-BEAM-AAAA@1; the geometry is now CAD-BEAM-AAAA@2/);
    expect(out.evidence.items[0]).toMatchObject({
      node_id: r.id,
      stale: true,
      analysed_geometry: { ref: 'CAD-BEAM-AAAA@1', current: false },
      verifies: ['CS-REQ-AAAA:REQ-STRESS'],
    });
    expect(out.coverage).toMatchObject({ evidenced_items: 0, coverage_percent: 0 });
  });

  it('stale when the twin marked the result stale, even on the head geometry', () => {
    const item = only({
      heads: [stressSet(125)],
      records: [fea(60, GEOM_1, { stale: true, stale_reason: 'input superseded' })],
      pins: pins(),
    });
    expect(item.status).toBe('stale');
  });

  it('failed: the current result exceeds the limit', () => {
    const item = only({ heads: [stressSet(125)], records: [fea(584.1)], pins: pins() });
    expect(item).toMatchObject({ status: 'failed', evidenced: true, value: 584.1 });
    expect(item.note).toMatch(/violates/);
  });

  it('the newest current result decides; a newer stale one does not hide an older current one', () => {
    const older = fea(60, GEOM_1, { created_at: at(1) });
    const newer = fea(900, GEOM_1, { created_at: at(2) });
    expect(only({ heads: [stressSet(125)], records: [newer, older], pins: pins() }).status).toBe('failed');
    const staleNewest = fea(900, GEOM_1, { created_at: at(3), stale: true });
    const item = only({ heads: [stressSet(125)], records: [staleNewest, older], pins: pins() });
    expect(item.status).toBe('verified');
    expect(item.evidence.map((e) => [e.node_id, e.stale])).toEqual([
      [older.id, false],
      [staleNewest.id, true],
    ]);
  });

  it('a result of a draft geometry (not yet approved) is no evidence yet, and not stale either', () => {
    const draft: GeometryPin = {
      node_id: GEOM_1,
      item_key: 'CAD-BEAM-AAAA',
      revision: 2,
      head_revision: 1,
      head_node_id: GEOM_2,
    };
    const out = run({ heads: [stressSet(125)], records: [fea(60)], pins: [draft] });
    expect(out.checklist.items[0].status).toBe('unverified');
    expect(out.evidence.items[0].note).toMatch(/a draft: counts once approved/);
  });
});

describe('waivers', () => {
  it('a requirement its set revision waives is waived, even when failing, and names where and why', () => {
    const set = stressSet(125, { waivers: { 'REQ-STRESS': 'accepted at the clamp by the customer' } });
    const item = only({ heads: [{ ...set, author: 'local:dashboard' }], records: [fea(584.1)], pins: pins() });
    expect(item).toMatchObject({
      status: 'waived',
      evidenced: false,
      waiver: {
        set_ref: 'CS-REQ-AAAA@1',
        approved_by: 'local:dashboard',
        reason: 'accepted at the clamp by the customer',
      },
    });
  });

  it('reads a list of waived ids too, with the revision change reason when no reason is given', () => {
    const set = { ...stressSet(125, { waivers: ['REQ-STRESS'] }), change_reason: 'waive the stress check' };
    expect(only({ heads: [set] }).waiver?.reason).toBe('waive the stress check');
  });
});
