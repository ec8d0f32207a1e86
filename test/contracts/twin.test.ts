import { describe, expect, it } from 'vitest';
import {
  AnalysedGeometrySchema,
  AnalysedRefSchema,
  BaselineDetailSchema,
  BaselineDiffItemSchema,
  BaselineDiffSchema,
  BaselineItemSchema,
  BaselineListSchema,
  BaselineMemberSchema,
  BaselineSummarySchema,
  BomComponentSchema,
  BomListSchema,
  BomPriceStatusSchema,
  BomAvailabilitySchema,
  BomStatusSchema,
  ConstraintCreateRequestSchema,
  ConstraintCreateResponseSchema,
  CurrentRevisionSchema,
  ItemHistoryResultSchema,
  ItemKeySchema,
  ItemRefSchema,
  ItemRevisionSchema,
  ItemSchema,
  ItemWriteResultSchema,
  RevisionNumberSchema,
  RevisionStatusSchema,
  Sha256HexSchema,
  SimResultListingEntrySchema,
  SimResultNodeMetadataSchema,
  TwinImportFormSchema,
} from '../../contracts/twin.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;
const hash = 'a'.repeat(64);

const item = {
  key: 'CAD-BRACKET',
  item_type: 'cad',
  name: 'Bracket',
  project_id: 'p1',
  head_revision: 2,
  head_node_id: 'n2',
  head_ref: 'CAD-BRACKET@2',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00Z',
};
const revision = {
  revision: 2,
  node_id: 'n2',
  name: 'Bracket',
  change_reason: 'thicker web',
  run_id: null,
  author: 'ann',
  is_head: true,
  adopted: true,
  status: 'committed',
  change_set: null,
  phase: null,
  gate: null,
  status_reason: null,
};
const summary = {
  id: 'b1',
  name: 'Gate concept',
  created_at: '2025-01-01T00:00:00Z',
  approved_by: ['ann'],
  gate_id: null,
  item_count: 1,
  member_count: 0,
  project_id: 'p1',
  run_id: null,
};

describe('item keys, refs and revision numbers', () => {
  it('accept KEY and KEY@n', () => {
    expect(ok(ItemKeySchema, 'PRD-1')).toBe(true);
    expect(ok(ItemRefSchema, 'CAD-BRACKET@12')).toBe(true);
    expect(ok(RevisionNumberSchema, 1)).toBe(true);
    expect(RevisionStatusSchema.options).toEqual(['committed', 'draft', 'approved', 'rejected', 'abandoned']);
  });
  it('reject a key with @, a ref without n, revision 0 and an unknown status', () => {
    expect(ok(ItemKeySchema, 'CAD@1')).toBe(false);
    expect(ok(ItemRefSchema, 'CAD-BRACKET')).toBe(false);
    expect(ok(ItemRefSchema, 'CAD@0')).toBe(false);
    expect(ok(RevisionNumberSchema, 0)).toBe(false);
    expect(ok(RevisionStatusSchema, 'superseded')).toBe(false);
  });
});

describe('ItemSchema, ItemRevisionSchema, ItemHistoryResultSchema', () => {
  it('accept an item with an open draft, a revision and a history result', () => {
    const withDraft = { ...item, draft_revision: 3, draft_node_id: 'n3', draft_ref: 'CAD-BRACKET@3' };
    expect(ItemSchema.parse(withDraft)).toEqual(withDraft);
    expect(ok(ItemSchema, { ...item, head_revision: null, head_node_id: null, head_ref: null })).toBe(true);
    expect(ItemRevisionSchema.parse(revision)).toEqual(revision);
    expect(ok(CurrentRevisionSchema, { revision: 2, node_id: 'n2', ref: 'CAD-BRACKET@2' })).toBe(true);
    const history = { ...item, revisions: [revision], current: { revision: 2, node_id: 'n2', ref: 'CAD-BRACKET@2' } };
    expect(ItemHistoryResultSchema.parse(history)).toEqual(history);
  });
  it('reject a bad head_ref, an unknown revision status and a history without current', () => {
    expect(ok(ItemSchema, { ...item, head_ref: 'CAD-BRACKET' })).toBe(false);
    expect(ok(ItemRevisionSchema, { ...revision, status: 'open' })).toBe(false);
    expect(ok(ItemRevisionSchema, { ...revision, is_head: 'yes' })).toBe(false);
    expect(ok(CurrentRevisionSchema, { revision: 2, node_id: 'n2' })).toBe(false);
    expect(ok(ItemHistoryResultSchema, { ...item, revisions: [revision] })).toBe(false);
  });
});

describe('ItemWriteResultSchema', () => {
  it('accepts a committed write and a draft write keeping extra tool fields', () => {
    expect(ok(ItemWriteResultSchema, { item_key: 'CS-1', revision: 1, item_ref: 'CS-1@1' })).toBe(true);
    const draft = {
      item_key: 'CS-1',
      revision: 2,
      item_ref: 'CS-1@2',
      revision_status: 'draft',
      draft_note: 'held for the gate',
      node_id: 'n',
    };
    expect(ItemWriteResultSchema.parse(draft)).toEqual(draft);
  });
  it('rejects a revision_status other than draft and a missing item_ref', () => {
    expect(
      ok(ItemWriteResultSchema, { item_key: 'CS-1', revision: 2, item_ref: 'CS-1@2', revision_status: 'committed' }),
    ).toBe(false);
    expect(ok(ItemWriteResultSchema, { item_key: 'CS-1', revision: 2 })).toBe(false);
  });
});

describe('baselines', () => {
  it('fill reason "" and source "manual" in a summary, and name "" in a baseline item', () => {
    const parsed = BaselineSummarySchema.parse(summary);
    expect(parsed.reason).toBe('');
    expect(parsed.source).toBe('manual');
    const bItem = BaselineItemSchema.parse({
      key: 'CAD-1',
      item_type: 'cad',
      node_id: 'n',
      ref: 'CAD-1@1',
      revision: 1,
    });
    expect(bItem.name).toBe('');
  });
  it('accept detail, list, member and diff', () => {
    const detail = {
      ...summary,
      items: [{ key: 'CAD-1', item_type: 'cad', name: 'x', node_id: 'n', ref: 'CAD-1@1', revision: 1 }],
      members: [{ entity_kind: 'decision', entity_id: 'd1', revision: null }],
    };
    expect(ok(BaselineDetailSchema, detail)).toBe(true);
    expect(ok(BaselineMemberSchema, detail.members[0])).toBe(true);
    expect(ok(BaselineListSchema, { baselines: [summary], total: 1 })).toBe(true);
    const row = {
      key: 'CAD-1',
      item_type: 'cad',
      name: 'x',
      status: 'added',
      from_ref: null,
      from_revision: null,
      to_ref: 'CAD-1@1',
      to_revision: 1,
    };
    expect(ok(BaselineDiffItemSchema, row)).toBe(true);
    const diff = BaselineDiffSchema.parse({ a: summary, b: null, counts: { added: 1 }, items: [row] });
    expect(diff.b_is_current).toBe(false);
  });
  it('reject a missing approved_by, a string total, a negative count and a member without entity_id', () => {
    const { approved_by: _a, ...noApprovers } = summary;
    expect(ok(BaselineSummarySchema, noApprovers)).toBe(false);
    expect(
      ok(BaselineItemSchema, { key: 'CAD-1', item_type: 'cad', node_id: 'n', ref: 'CAD-1@1', revision: '1' }),
    ).toBe(false);
    expect(ok(BaselineDetailSchema, { ...summary, items: [] })).toBe(false);
    expect(ok(BaselineListSchema, { baselines: [], total: '0' })).toBe(false);
    expect(ok(BaselineDiffSchema, { a: summary, b: null, counts: { added: -1 }, items: [] })).toBe(false);
    expect(ok(BaselineDiffItemSchema, { key: 'CAD-1', item_type: 'cad', name: 'x', status: 'added' })).toBe(false);
    expect(ok(BaselineMemberSchema, { entity_kind: 'decision', revision: 1 })).toBe(false);
  });
});

describe('AnalysedRefSchema', () => {
  it('accepts {key, revision, ref, current}', () => {
    expect(ok(AnalysedRefSchema, { key: 'CAD-1', revision: 3, ref: 'CAD-1@3', current: false })).toBe(true);
  });
  it('rejects a non-integer revision', () => {
    expect(ok(AnalysedRefSchema, { key: 'CAD-1', revision: 1.5, ref: 'CAD-1@1', current: true })).toBe(false);
  });
});

describe('simulation result metadata and listing', () => {
  const geometry = { node_id: 'n1', revision: 2, name: 'Bracket', content_hash: hash };
  it('accept stored-field metadata, old numbers-only metadata and a listing entry', () => {
    expect(ok(Sha256HexSchema, hash)).toBe(true);
    expect(ok(AnalysedGeometrySchema, geometry)).toBe(true);
    const meta = {
      field_stored: true,
      field_object_key: 'work-products/n9/result.field.json.gz',
      field_content_hash: hash,
      field_size_bytes: 4685,
      field_format: 'service.sim_field',
      field_analysis_type: 'static_stress',
      field_quantities: ['von_mises'],
      field_ranges: { von_mises: { min: 3.792, max: 584.1 } },
      analysed_geometry: geometry,
      load_case_spec: { force_n: [0, 0, -1000] },
      fixtures: [{ label: 'FIXED' }],
      loads: [],
      max_von_mises_mpa: 584.1,
      meshStats: { nodes: 176 },
    };
    expect(SimResultNodeMetadataSchema.parse(meta)).toEqual(meta);
    expect(
      ok(SimResultNodeMetadataSchema, {
        field_stored: false,
        field_store_error: 'upload failed',
        max_von_mises_mpa: 1,
      }),
    ).toBe(true);
    const entry = {
      id: 'n9',
      hasField: true,
      analysisType: 'static_stress',
      fieldQuantities: ['von_mises'],
      fieldRanges: { von_mises: { min: 1, max: 2 } },
      analysedGeometry: geometry,
      loadCaseSpec: null,
      fixtures: [],
      loads: [],
      max_von_mises_mpa: 2,
    };
    // An entry recorded before the suspect check reads as not suspect.
    expect(SimResultListingEntrySchema.parse(entry)).toEqual({ ...entry, suspect: [] });
    const flagged = { ...entry, suspect: ['peak max_von_mises_mpa is 0: the model carried no load'] };
    expect(SimResultListingEntrySchema.parse(flagged)).toEqual(flagged);
    expect(ok(SimResultListingEntrySchema, { ...entry, suspect: [1] })).toBe(false);
    expect(SimResultNodeMetadataSchema.parse({ ...meta, suspect: [] })).toEqual({ ...meta, suspect: [] });
  });
  it('reject a bad hash, a missing field_stored and a listing entry without hasField', () => {
    expect(ok(Sha256HexSchema, 'ABC')).toBe(false);
    expect(ok(AnalysedGeometrySchema, { node_id: 'n1', revision: 2, name: 'x' })).toBe(false);
    expect(ok(SimResultNodeMetadataSchema, { field_stored: true, field_content_hash: 'xyz' })).toBe(false);
    expect(ok(SimResultNodeMetadataSchema, { max_von_mises_mpa: 1 })).toBe(false);
    expect(ok(SimResultListingEntrySchema, { id: 'n', analysisType: null, fieldQuantities: [], fieldRanges: {} })).toBe(
      false,
    );
  });
});

describe('BOM', () => {
  const component = {
    id: 'c1',
    designator: 'U1',
    partNumber: 'LM317',
    description: 'regulator',
    manufacturer: 'TI',
    quantity: 2,
    unitPrice: 0.45,
    priceStatus: 'priced',
    priceCurrency: 'EUR',
    status: 'low_stock',
    category: 'power',
    projectId: 'p1',
    datasheetUrl: null,
  };
  it('accepts a component and a list', () => {
    expect(BomComponentSchema.parse(component)).toEqual(component);
    expect(ok(BomListSchema, { components: [component], total: 1 })).toBe(true);
    expect(BomStatusSchema.options).toEqual(['available', 'low_stock', 'out_of_stock', 'alternate_needed']);
  });
  it('rejects a fractional quantity, an unknown status, a missing projectId and a list without total', () => {
    expect(ok(BomComponentSchema, { ...component, quantity: 1.5 })).toBe(false);
    expect(ok(BomComponentSchema, { ...component, status: 'discontinued' })).toBe(false);
    // Unknown availability (decision 0070, amendment) is a served value, not one a record states.
    expect(BomComponentSchema.parse({ ...component, status: 'unknown' }).status).toBe('unknown');
    expect(BomStatusSchema.safeParse('unknown').success).toBe(false);
    expect(BomAvailabilitySchema.options).toEqual([...BomStatusSchema.options, 'unknown']);
    const { projectId: _p, ...rest } = component;
    expect(ok(BomComponentSchema, rest)).toBe(false);
    expect(ok(BomListSchema, { components: [] })).toBe(false);
  });
  it('takes an unpriced line as unitPrice null, never a negative price or an unknown price status', () => {
    const unpriced = { ...component, unitPrice: null, priceStatus: 'unpriced' };
    expect(BomComponentSchema.parse(unpriced)).toEqual(unpriced);
    expect(BomPriceStatusSchema.options).toEqual(['priced', 'unpriced']);
    expect(ok(BomComponentSchema, { ...component, unitPrice: -1 })).toBe(false);
    expect(ok(BomComponentSchema, { ...component, priceStatus: 'quoted' })).toBe(false);
    const { priceStatus: _s, ...noStatus } = component;
    expect(ok(BomComponentSchema, noStatus)).toBe(false);
  });
  it('defaults the list counts to 0 and refuses a negative or fractional count', () => {
    expect(BomListSchema.parse({ components: [], total: 0 })).toEqual({
      components: [],
      total: 0,
      unpriced_count: 0,
      unknown_availability_count: 0,
      unscoped_count: 0,
    });
    expect(ok(BomListSchema, { components: [], total: 0, unpriced_count: -1 })).toBe(false);
    expect(ok(BomListSchema, { components: [], total: 0, unscoped_count: 1.5 })).toBe(false);
  });
});

describe('TwinImportFormSchema', () => {
  it('fills description with an empty string', () => {
    const file = new File(['ISO-10303-21;'], 'part.step');
    const parsed = TwinImportFormSchema.parse({ file, project_id: 'p1' });
    expect(parsed.description).toBe('');
    expect(parsed.file).toBe(file);
  });
  it('rejects a missing file and a string in place of a file', () => {
    expect(ok(TwinImportFormSchema, { description: 'x' })).toBe(false);
    expect(ok(TwinImportFormSchema, { file: 'part.step' })).toBe(false);
  });
});

describe('ConstraintCreateRequestSchema and ConstraintCreateResponseSchema', () => {
  it('fill message, operator, severity and verificationMethod defaults', () => {
    expect(
      ConstraintCreateRequestSchema.parse({
        projectId: 'p1',
        name: 'deflection',
        metric: 'max_displacement_mm',
        limit: 0.5,
      }),
    ).toEqual({
      projectId: 'p1',
      name: 'deflection',
      metric: 'max_displacement_mm',
      limit: 0.5,
      message: '',
      operator: '<=',
      severity: 'error',
      verificationMethod: '',
    });
    expect(ok(ConstraintCreateResponseSchema, { constraintId: 'k1', setWorkProductId: null })).toBe(true);
  });
  it('reject a string limit, a missing metric and a response without constraintId', () => {
    expect(ok(ConstraintCreateRequestSchema, { projectId: 'p1', name: 'n', metric: 'm', limit: '0.5' })).toBe(false);
    expect(ok(ConstraintCreateRequestSchema, { projectId: 'p1', name: 'n', limit: 1 })).toBe(false);
    expect(ok(ConstraintCreateResponseSchema, { setWorkProductId: null })).toBe(false);
  });
});
