import { describe, expect, it } from 'vitest';
import {
  ComplianceChecklistSchema,
  ComplianceCoverageSchema,
  ComplianceEvidenceListSchema,
} from '../../../contracts/compliance.ts';
import {
  evaluateCompliance,
  type ComplianceInput,
  type GeometryPin,
  type HeadRow,
  type RecordRow,
} from '../../../actors/twin/compliance/index.ts';

// The pure compliance evaluation (actors/twin/compliance/*.rules.ts): hostile and stale cases first. Inputs are the
// rows the twin's reads answer, written inline per test.

const GEOM_1 = '11111111-1111-4111-8111-111111111111';
const GEOM_2 = '22222222-2222-4222-8222-222222222222';
const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();

const head = (over: Partial<HeadRow> & Pick<HeadRow, 'key' | 'item_type'>): HeadRow => ({
  revision: 1,
  node_id: crypto.randomUUID(),
  name: over.key,
  properties: {},
  author: null,
  change_reason: null,
  stale: false,
  stale_reason: null,
  created_at: at(0),
  ...over,
});
const record = (over: Partial<RecordRow> & Pick<RecordRow, 'node_type'>): RecordRow => ({
  id: crypto.randomUUID(),
  name: over.node_type,
  properties: {},
  stale: false,
  stale_reason: null,
  created_at: at(10),
  ...over,
});
const stressSet = (limit: number, extra: Record<string, unknown> = {}, revision = 1) =>
  head({
    key: 'CS-REQ-AAAA',
    item_type: 'constraint_set',
    revision,
    properties: {
      constraints: [
        {
          id: 'REQ-STRESS',
          metric: 'max_von_mises_mpa',
          operator: '<=',
          limit,
          unit: 'MPa',
          severity: 'error',
          verification_method: 'analysis',
        },
      ],
      ...extra,
    },
  });
const fea = (stress: number, geometry = GEOM_1, over: Partial<RecordRow> = {}) =>
  record({
    node_type: 'simulation_result',
    name: 'static stress',
    properties: {
      max_von_mises_mpa: stress,
      analysed_geometry: { node_id: geometry, revision: 1, content_hash: 'ab' },
    },
    ...over,
  });
/** GEOM_1 is CAD-BEAM-AAAA@1; with `superseded` the head is @2 (GEOM_2). */
const pins = (superseded = false): GeometryPin[] => [
  {
    node_id: GEOM_1,
    item_key: 'CAD-BEAM-AAAA',
    revision: 1,
    head_revision: superseded ? 2 : 1,
    head_node_id: superseded ? GEOM_2 : GEOM_1,
  },
];
const run = (input: Partial<ComplianceInput>) => {
  const r = evaluateCompliance({ project_id: 'p1', design_flows: [], heads: [], records: [], pins: [], ...input });
  // Every answer is a valid wire shape.
  ComplianceChecklistSchema.parse(r.checklist);
  ComplianceCoverageSchema.parse(r.coverage);
  ComplianceEvidenceListSchema.parse(r.evidence);
  return r;
};
const only = (input: Partial<ComplianceInput>) => {
  const { checklist } = run(input);
  expect(checklist.items).toHaveLength(1);
  return checklist.items[0];
};

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

describe('other methods and evidence kinds', () => {
  it('inspection: an envelope requirement is measured on the current geometry', () => {
    const set = head({
      key: 'CS-ENV-AAAA',
      item_type: 'constraint_set',
      properties: {
        constraints: [
          {
            id: 'REQ-ENV-1',
            metric: 'length_mm',
            operator: '<=',
            limit: 200,
            unit: 'mm',
            verification_method: 'inspection',
          },
        ],
      },
    });
    const geom = head({
      key: 'CAD-BEAM-AAAA',
      item_type: 'cad_model',
      properties: { bounding_box: { min: [0, 0, 0], max: [200, 20, 10] } },
    });
    expect(only({ heads: [set, geom] })).toMatchObject({
      status: 'verified',
      value: 200,
      verification_method: 'inspection',
    });
  });

  it('test: a test result states its measurement as JSON content', () => {
    const set = head({
      key: 'CS-EL-AAAA',
      item_type: 'constraint_set',
      properties: {
        constraints: [
          { id: 'C1', metric: 'ripple_mv', operator: '<=', limit: 50, unit: 'mV', verification_method: 'bench test' },
        ],
      },
    });
    const t = record({
      node_type: 'test_result',
      properties: { content: JSON.stringify({ measurements: { ripple_mv: 31 } }) },
    });
    expect(only({ heads: [set], records: [t] })).toMatchObject({
      status: 'verified',
      value: 31,
      verification_method: 'test',
      discipline: 'electronics',
    });
  });

  it('review: a decision pinning the set and naming the requirement; an older pin is stale', () => {
    const set = head({
      key: 'CS-COST-AAAA',
      item_type: 'constraint_set',
      revision: 2,
      properties: {
        constraints: [{ id: 'REQ-COST', metric: 'unit_cost_usd', operator: '<=', limit: 20, unit: 'USD' }],
      },
    });
    const current = record({
      node_type: 'design_decision',
      name: 'Cost review',
      properties: { decision: 'REQ-COST met by the BOM', depends_on: ['CS-COST-AAAA@2'] },
    });
    expect(only({ heads: [set], records: [current] })).toMatchObject({
      status: 'verified',
      verification_method: 'review',
      discipline: 'general',
    });
    const old = { ...current, properties: { ...current.properties, depends_on: ['CS-COST-AAAA@1'] } };
    expect(only({ heads: [set], records: [old] }).status).toBe('stale');
    const other = { ...current, properties: { ...current.properties, decision: 'REQ-COSTLY noted' } };
    expect(only({ heads: [set], records: [other] }).status).toBe('unverified');
  });
});

describe('checklist packs', () => {
  const drc = (errors: number) =>
    record({
      node_type: 'drc_report',
      properties: { content: JSON.stringify({ passed: errors === 0, error_count: errors }) },
    });
  const drawing = (tol: string) =>
    head({ key: 'DRW-BRACKET-AAAA', item_type: 'technical_drawing', properties: { general_tolerance: tol } });

  it('a hardware product gets IEC 62368-1, EN 55032 and ISO 2768, and their markets', () => {
    const { checklist } = run({ design_flows: ['hardware_v1'] });
    expect(checklist.product_types).toEqual(['hardware_product']);
    expect(checklist.packs.map((p) => p.id)).toEqual(['IEC-62368-1', 'EN-55032', 'ISO-2768']);
    expect(checklist.target_markets).toEqual(['EU', 'US']);
    expect(checklist.items.every((i) => i.source === 'pack' && i.status === 'unverified' && !i.mandatory)).toBe(true);
  });

  it('a mechanical part gets ISO 2768 only; an unknown flow gets nothing', () => {
    expect(run({ design_flows: ['mech_v1', 'mech_v1'] }).checklist.packs.map((p) => p.id)).toEqual(['ISO-2768']);
    expect(run({ design_flows: ['custom_flow'] }).checklist.packs).toEqual([]);
  });

  it('judges pack items on their evidence: a DRC report, a drawing with a tolerance class, a test result', () => {
    const emission = record({ node_type: 'test_result', properties: { radiated_emission_margin_db: -2.5 } });
    const { checklist } = run({
      design_flows: ['hardware_v1'],
      heads: [drawing('ISO 2768-m')],
      records: [drc(0), emission],
    });
    const status = Object.fromEntries(checklist.items.map((i) => [i.ref, i.status]));
    expect(status).toMatchObject({
      'IEC-62368-1:5.4.2': 'verified',
      'IEC-62368-1:5.4.9': 'unverified',
      'EN-55032:Annex A, Table A.4': 'failed',
      'ISO-2768:ISO 2768-1, Indications on drawings': 'verified',
      'ISO-2768:ISO 2768-2, Indications on drawings': 'failed',
    });
    expect(
      run({ design_flows: ['mech_v1'], heads: [drawing('ISO 2768-mK')] }).checklist.items.map((i) => i.status),
    ).toEqual(['verified', 'verified']);
    expect(run({ design_flows: ['hardware_v1'], records: [drc(3)] }).checklist.items[0].status).toBe('failed');
  });
});

describe('coverage and blockers', () => {
  it('counts per status, discipline and method, percentages to one decimal', () => {
    const set = head({
      key: 'CS-MIX-AAAA',
      item_type: 'constraint_set',
      properties: {
        constraints: [
          { id: 'A', metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa' },
          { id: 'B', metric: 'max_displacement_mm', limit: 1, unit: 'mm' },
          { id: 'C', metric: 'ripple_mv', limit: 50, unit: 'mV', severity: 'warning' },
        ],
      },
    });
    const r = record({
      node_type: 'simulation_result',
      properties: { max_von_mises_mpa: 60, max_displacement_mm: 2, analysed_geometry: { node_id: GEOM_1 } },
    });
    const { coverage, checklist } = run({ heads: [set], records: [r], pins: pins() });
    expect(coverage).toMatchObject({ total_items: 3, evidenced_items: 2, coverage_percent: 66.7 });
    expect(coverage.by_status.failed).toEqual({ count: 1, percent: 33.3 });
    expect(coverage.by_discipline.mechanical).toMatchObject({
      total_items: 2,
      evidenced_items: 2,
      coverage_percent: 100,
    });
    expect(coverage.by_discipline.electronics.statuses.unverified).toBe(1);
    expect(coverage.by_method.analysis.total_items).toBe(2);
    expect(coverage.by_method.test.total_items).toBe(1);
    expect(checklist.items.filter((i) => i.mandatory && i.status === 'failed').map((i) => i.ref)).toEqual([
      'CS-MIX-AAAA:B',
    ]);
  });

  it('names the prd and the set revisions it lists that are no longer current', () => {
    const prd = head({
      key: 'PRD-P-AAAA',
      item_type: 'prd',
      revision: 3,
      properties: { requirement_refs: ['CS-REQ-AAAA@1', 'CS-REQ-AAAA@2'] },
    });
    expect(run({ heads: [prd, stressSet(125, {}, 2)] }).checklist.prd).toMatchObject({
      ref: 'PRD-P-AAAA@3',
      requirement_refs: ['CS-REQ-AAAA@1', 'CS-REQ-AAAA@2'],
      outdated_refs: ['CS-REQ-AAAA@1'],
    });
  });
});
