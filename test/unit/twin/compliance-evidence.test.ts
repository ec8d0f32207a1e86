import { describe, expect, it } from 'vitest';
import { GEOM_1, head, record, stressSet, pins, run, only } from '../../support/compliance-rows.ts';

// The pure compliance evaluation, continued: inspection, test and review evidence, the checklist packs, coverage.

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
