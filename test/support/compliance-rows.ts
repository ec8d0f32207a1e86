import { expect } from 'vitest';
import {
  ComplianceChecklistSchema,
  ComplianceCoverageSchema,
  ComplianceEvidenceListSchema,
} from '../../contracts/compliance.ts';
import {
  evaluateCompliance,
  type ComplianceInput,
  type GeometryPin,
  type HeadRow,
  type RecordRow,
} from '../../actors/twin/compliance/index.ts';

// Rows the twin's compliance reads answer, for the pure evaluation's tests (actors/twin/compliance/*.rules.ts).

export const GEOM_1 = '11111111-1111-4111-8111-111111111111';
export const GEOM_2 = '22222222-2222-4222-8222-222222222222';
export const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();

export const head = (over: Partial<HeadRow> & Pick<HeadRow, 'key' | 'item_type'>): HeadRow => ({
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
export const record = (over: Partial<RecordRow> & Pick<RecordRow, 'node_type'>): RecordRow => ({
  id: crypto.randomUUID(),
  name: over.node_type,
  properties: {},
  stale: false,
  stale_reason: null,
  created_at: at(10),
  ...over,
});
export const stressSet = (limit: number, extra: Record<string, unknown> = {}, revision = 1) =>
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
export const fea = (stress: number, geometry = GEOM_1, over: Partial<RecordRow> = {}) =>
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
export const pins = (superseded = false): GeometryPin[] => [
  {
    node_id: GEOM_1,
    item_key: 'CAD-BEAM-AAAA',
    revision: 1,
    head_revision: superseded ? 2 : 1,
    head_node_id: superseded ? GEOM_2 : GEOM_1,
  },
];
export const run = (input: Partial<ComplianceInput>) => {
  const r = evaluateCompliance({
    project_id: 'p1',
    design_flows: [],
    heads: [],
    records: [],
    pins: [],
    ...input,
  });
  // Every answer is a valid wire shape.
  ComplianceChecklistSchema.parse(r.checklist);
  ComplianceCoverageSchema.parse(r.coverage);
  ComplianceEvidenceListSchema.parse(r.evidence);
  return r;
};
export const only = (input: Partial<ComplianceInput>) => {
  const { checklist } = run(input);
  expect(checklist.items).toHaveLength(1);
  return checklist.items[0];
};
