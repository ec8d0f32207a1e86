import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RunListSchema } from '../../contracts/actions/runs.actions.ts';
import { KnowledgeSourceListSchema } from '../../contracts/knowledge.ts';
import { SessionListSchema } from '../../contracts/sessions.ts';
import { SimResultListSchema } from '../../contracts/simulation-views.ts';
import { CurrentViewSchema } from '../../contracts/twin-views.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

// Every project-scoped list the dashboard reads carries unscoped_count (issue 28 point 5), as the approvals list does.
const lists: [string, z.ZodType, Record<string, unknown>][] = [
  ['RunListSchema', RunListSchema, { runs: [], total: 0 }],
  ['KnowledgeSourceListSchema', KnowledgeSourceListSchema, { sources: [], total: 0 }],
  ['SessionListSchema', SessionListSchema, { sessions: [], total: 0 }],
  ['SimResultListSchema', SimResultListSchema, { results: [], total: 0 }],
  ['CurrentViewSchema', CurrentViewSchema, { project_id: 'p1', item_count: 0, by_type: {} }],
];

describe('unscoped_count on the project-scoped lists', () => {
  for (const [name, schema, empty] of lists) {
    it(`${name}: defaults to 0, keeps a count, refuses a negative or fractional one`, () => {
      expect(schema.parse(empty)).toEqual({ ...empty, unscoped_count: 0 });
      expect(schema.parse({ ...empty, unscoped_count: 3 })).toEqual({ ...empty, unscoped_count: 3 });
      expect(ok(schema, { ...empty, unscoped_count: -1 })).toBe(false);
      expect(ok(schema, { ...empty, unscoped_count: 1.5 })).toBe(false);
    });
  }
  it('RunListSchema refuses a list without total', () => {
    expect(ok(RunListSchema, { runs: [] })).toBe(false);
  });
});
