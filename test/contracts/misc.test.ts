import { describe, expect, it } from 'vitest';
import {
  AddConceptOptionRequestSchema,
  AssistantRequestSchema,
  AssistantResponseSchema,
  AssistantStatusSchema,
  ChannelListSchema,
  ChannelSchema,
  ChecklistResponseSchema,
  ConsolidationModeSchema,
  ConsolidationResponseSchema,
  ConsolidationTriggerRequestSchema,
  CoverageResponseSchema,
  MemoryConfidenceTierSchema,
  MemoryThemeSchema,
} from '../../contracts/misc.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;
const uuid = '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c';

describe('compliance', () => {
  const coverage = { project_id: 'p1', total_items: 10, evidenced_items: 4, coverage_percent: 40 };
  it('accepts coverage and checklist', () => {
    expect(CoverageResponseSchema.parse(coverage)).toEqual(coverage);
    const checklist = { ...coverage, target_markets: ['EU'], items: [{ id: 'ce-1', evidenced: true }] };
    expect(ChecklistResponseSchema.parse(checklist)).toEqual(checklist);
  });
  it('rejects a percent above 100 and a checklist without target_markets', () => {
    expect(ok(CoverageResponseSchema, { ...coverage, coverage_percent: 101 })).toBe(false);
    expect(ok(ChecklistResponseSchema, { ...coverage, items: [] })).toBe(false);
  });
});

describe('AddConceptOptionRequestSchema', () => {
  it('defaults evidenceBackedCriteria to []', () => {
    expect(AddConceptOptionRequestSchema.parse({ title: 'Option A', criteriaScores: { cost: 3 } })).toEqual({
      title: 'Option A',
      criteriaScores: { cost: 3 },
      evidenceBackedCriteria: [],
    });
  });
  it('rejects a missing criteriaScores and a string score', () => {
    expect(ok(AddConceptOptionRequestSchema, { title: 'A' })).toBe(false);
    expect(ok(AddConceptOptionRequestSchema, { title: 'A', criteriaScores: { cost: 'high' } })).toBe(false);
  });
});

describe('ConsolidationTriggerRequestSchema', () => {
  it('defaults mode to on_demand and leaves the filters unset', () => {
    expect(ConsolidationTriggerRequestSchema.parse({})).toEqual({ mode: 'on_demand' });
    const full = {
      mode: 'janitor',
      theme: 'power_analysis',
      projectId: uuid,
      since: '2025-01-01T00:00:00Z',
      until: '2025-02-01T00:00:00Z',
      fetchLimit: 50,
      minImportance: 0.5,
    };
    expect(ConsolidationTriggerRequestSchema.parse(full)).toEqual(full);
    expect(ConsolidationModeSchema.options).toEqual(['background', 'on_demand', 'proactive', 'janitor']);
    expect(MemoryThemeSchema.options).toHaveLength(8);
  });
  it('rejects out-of-range values, a non-uuid project, an unknown theme and since after until', () => {
    expect(ok(ConsolidationTriggerRequestSchema, { mode: 'nightly' })).toBe(false);
    expect(ok(ConsolidationTriggerRequestSchema, { theme: 'thermal' })).toBe(false);
    expect(ok(ConsolidationTriggerRequestSchema, { projectId: 'p1' })).toBe(false);
    expect(ok(ConsolidationTriggerRequestSchema, { fetchLimit: 0 })).toBe(false);
    expect(ok(ConsolidationTriggerRequestSchema, { minImportance: 1.2 })).toBe(false);
    expect(ok(ConsolidationTriggerRequestSchema, { since: 'last week' })).toBe(false);
    expect(
      ok(ConsolidationTriggerRequestSchema, { since: '2025-03-01T00:00:00Z', until: '2025-02-01T00:00:00Z' }),
    ).toBe(false);
  });
});

describe('ConsolidationResponseSchema', () => {
  const res = {
    mode: 'on_demand',
    fetchedCount: 10,
    groupCount: 3,
    synthesizedCount: 3,
    acceptedCount: 2,
    rejectedCount: 1,
    revalidatedCount: 0,
    newlyFailedCount: 0,
    rejectedReasons: ['duplicate'],
  };
  it('accepts the spec counts', () => {
    expect(ConsolidationResponseSchema.parse(res)).toEqual(res);
  });
  it('rejects a negative count and a missing rejectedReasons', () => {
    expect(ok(ConsolidationResponseSchema, { ...res, groupCount: -1 })).toBe(false);
    const { rejectedReasons: _r, ...rest } = res;
    expect(ok(ConsolidationResponseSchema, rest)).toBe(false);
  });
});

describe('MemoryConfidenceTierSchema', () => {
  it('holds the three tiers', () => {
    expect(MemoryConfidenceTierSchema.options).toEqual(['verbatim', 'llm_inferred', 'derived']);
  });
  it('rejects another tier', () => {
    expect(ok(MemoryConfidenceTierSchema, 'inferred')).toBe(false);
  });
});

describe('channels', () => {
  const channel = { id: 'c1', name: 'general', scope_kind: 'project', created_at: '2025-01-01T00:00:00Z' };
  it('accept a channel and a list', () => {
    expect(ChannelSchema.parse(channel)).toEqual(channel);
    expect(ok(ChannelListSchema, { channels: [channel] })).toBe(true);
  });
  it('reject a non-datetime created_at and a list that is not an array', () => {
    expect(ok(ChannelSchema, { ...channel, created_at: 'today' })).toBe(false);
    expect(ok(ChannelListSchema, { channels: channel })).toBe(false);
  });
});

describe('AssistantRequestSchema', () => {
  it('defaults prompt to an empty string', () => {
    expect(AssistantRequestSchema.parse({ action: 'summarise', project_id: 'p1' })).toEqual({
      action: 'summarise',
      project_id: 'p1',
      prompt: '',
    });
    expect(
      ok(AssistantRequestSchema, { action: 'a', project_id: 'p', session_id: uuid, target_id: null, parameters: {} }),
    ).toBe(true);
  });
  it('rejects an empty action, a missing project_id and non-uuid ids', () => {
    expect(ok(AssistantRequestSchema, { action: '', project_id: 'p1' })).toBe(false);
    expect(ok(AssistantRequestSchema, { action: 'a' })).toBe(false);
    expect(ok(AssistantRequestSchema, { action: 'a', project_id: 'p', session_id: 's1' })).toBe(false);
    expect(ok(AssistantRequestSchema, { action: 'a', project_id: 'p', target_id: 't1' })).toBe(false);
  });
});

describe('AssistantResponseSchema', () => {
  it('accepts the spec shape', () => {
    expect(ok(AssistantResponseSchema, { status: 'accepted', request_id: 'r1', result: null, errors: [] })).toBe(true);
    expect(AssistantStatusSchema.options).toEqual(['accepted', 'completed', 'failed']);
  });
  it('rejects an unknown status and errors that are not strings', () => {
    expect(ok(AssistantResponseSchema, { status: 'done', request_id: 'r1', result: null, errors: [] })).toBe(false);
    expect(
      ok(AssistantResponseSchema, { status: 'failed', request_id: 'r1', result: null, errors: [{ code: 1 }] }),
    ).toBe(false);
  });
});
